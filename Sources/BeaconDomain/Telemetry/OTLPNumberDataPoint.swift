/// One value of a sum or a gauge, for one set of attributes.
package struct OTLPNumberDataPoint: Sendable, Equatable {
    /// The value: a whole number where the source counts, else a double.
    package enum Value: Sendable, Equatable {
        case int(Int64)
        case double(Double)
    }

    package var attributes: [OTLPAttribute]
    /// Since when a cumulative value counts, in nanoseconds since the epoch; 0 (left out) for a gauge.
    package var startTimeUnixNano: UInt64
    /// When the value was read, in nanoseconds since the epoch.
    package var timeUnixNano: UInt64
    package var value: Value

    package init(attributes: [OTLPAttribute] = [], startTimeUnixNano: UInt64 = 0, timeUnixNano: UInt64, value: Value) {
        self.attributes = attributes
        self.startTimeUnixNano = startTimeUnixNano
        self.timeUnixNano = timeUnixNano
        self.value = value
    }
}

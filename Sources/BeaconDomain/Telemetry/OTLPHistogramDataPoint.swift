/// One histogram, for one set of attributes: how many values fell in each bucket, their count and sum.
package struct OTLPHistogramDataPoint: Sendable, Equatable {
    package var attributes: [OTLPAttribute]
    /// Since when the histogram counts, in nanoseconds since the epoch.
    package var startTimeUnixNano: UInt64
    /// When it was read, in nanoseconds since the epoch.
    package var timeUnixNano: UInt64
    package var count: UInt64
    package var sum: Double
    /// The values in each bucket, not cumulative: bucket `i` holds those above `explicitBounds[i - 1]`
    /// and at most `explicitBounds[i]`; the last one those above the last bound. One more than the bounds.
    package var bucketCounts: [UInt64]
    /// The buckets' upper bounds, increasing.
    package var explicitBounds: [Double]

    package init(
        attributes: [OTLPAttribute] = [], startTimeUnixNano: UInt64, timeUnixNano: UInt64, count: UInt64, sum: Double,
        bucketCounts: [UInt64], explicitBounds: [Double]
    ) {
        self.attributes = attributes
        self.startTimeUnixNano = startTimeUnixNano
        self.timeUnixNano = timeUnixNano
        self.count = count
        self.sum = sum
        self.bucketCounts = bucketCounts
        self.explicitBounds = explicitBounds
    }
}

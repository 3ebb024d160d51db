/// One key and its value, of a resource, a log record or a data point. Attributes are lists, not
/// dictionaries: they are exported in the order given.
package struct OTLPAttribute: Sendable, Equatable {
    package var key: String
    package var value: OTLPValue

    package init(_ key: String, _ value: OTLPValue) {
        self.key = key
        self.value = value
    }
}

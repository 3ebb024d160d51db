/// One value of an exported attribute: the kinds of the protocol's `AnyValue` the daemon uses.
package enum OTLPValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case array([OTLPValue])
}

/// What a fuzz run feeds its inputs to, and the properties it checks on each.
package enum FuzzTarget: String, CaseIterable, Sendable, CustomStringConvertible {
    /// Bytes as they arrive on stdin or the control socket: framed into lines, each line parsed,
    /// the commands played into a tracking session.
    case lines
    /// A metadata response body: decoded and, when accepted, merged into a tracking session that
    /// then plays through its first ad break.
    case metadata

    package var description: String { rawValue }

    /// Checks every property of the target on one input, throwing the first that does not hold.
    /// Returns whether the input was accepted (some line parsed, or the document decoded): a
    /// run keeps such inputs to mutate further, as they reach deeper than rejected ones.
    @discardableResult
    package func check(_ input: [UInt8]) throws(PropertyViolation) -> Bool {
        switch self {
        case .lines: try LineInputProperties.check(input)
        case .metadata: try MetadataProperties.check(input)
        }
    }
}

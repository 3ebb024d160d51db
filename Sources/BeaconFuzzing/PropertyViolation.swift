/// A property the code under fuzzing must keep, found broken on one input.
public struct PropertyViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The property, stated as what must hold.
    public var property: String
    /// What was seen instead.
    public var details: String

    public init(property: String, details: String) {
        self.property = property
        self.details = details
    }

    public var description: String { "\(property): \(details)" }

    /// Throws a violation of `property` unless `condition` holds; the texts are built only on failure.
    static func require(
        _ condition: Bool, _ property: @autoclosure () -> String, _ details: @autoclosure () -> String
    ) throws(PropertyViolation) {
        if !condition { throw PropertyViolation(property: property(), details: details()) }
    }
}

/// A property the code under fuzzing must keep, found broken on one input.
package struct PropertyViolation: Error, Sendable, Equatable, CustomStringConvertible {
    /// The property, stated as what must hold.
    package var property: String
    /// What was seen instead.
    package var details: String

    package init(property: String, details: String) {
        self.property = property
        self.details = details
    }

    package var description: String { "\(property): \(details)" }

    /// Throws a violation of `property` unless `condition` holds; the texts are built only on failure.
    static func require(
        _ condition: Bool, _ property: @autoclosure () -> String, _ details: @autoclosure () -> String
    ) throws(PropertyViolation) {
        if !condition { throw PropertyViolation(property: property(), details: details()) }
    }
}

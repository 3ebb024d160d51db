/// Why a fuzz run could not be set up (a missing seed directory, a malformed dictionary).
package struct FuzzSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

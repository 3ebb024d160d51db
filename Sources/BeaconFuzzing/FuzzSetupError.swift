/// Why a fuzz run could not be set up (a missing seed directory, a malformed dictionary).
public struct FuzzSetupError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

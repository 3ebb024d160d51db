/// Why a session refuses a tick that parsed well: it cannot be put on the session's timeline.
public struct TickRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

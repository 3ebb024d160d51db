/// Why a session refuses a tick that parsed well: it cannot be put on the session's timeline.
package struct TickRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}

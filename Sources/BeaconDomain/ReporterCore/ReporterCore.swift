/// A reporter's rules as a value, the one shape of every reporter: fed the notifications it takes,
/// the answers to what it asked for and the instants it asked to wake at, each with the time, it
/// returns what to do. The runtime's reporter runner owns everything else: the bounded queue in
/// front of it, its timer, the switch, quiet mode, the drain deadline and the status counters.
package protocol ReporterCore: Sendable {
    /// What the reporter takes from a notification.
    associatedtype Input: Sendable
    /// What it asks its edge to carry out: a request on its own HTTP client, a bookmark to keep.
    associatedtype Effect: Sendable
    /// What became of an effect, for ``record(_:of:now:wallNow:using:)``.
    associatedtype Answer: Sendable

    /// The part of `notification` this reporter takes; nil passes it by, never queued.
    static func input(from notification: DaemonNotification) -> Input?
    mutating func take(_ input: Input, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>]
    /// Time passed: what is due by `now`.
    mutating func wake(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>]
    /// What became of `effect`, carried out at the edge.
    mutating func record(
        _ answer: Answer, of effect: Effect, now: Milliseconds, wallNow: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> [ReporterAction<Effect>]
    /// `reporter enable|disable`: what it sends and tells from now on.
    mutating func setEnabled(_ enabled: Bool, now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>]
    /// The daemon finished: what is left to do within the drain timeout.
    mutating func end(now: Milliseconds, wallNow: Milliseconds) -> [ReporterAction<Effect>]
    /// When ``wake(now:wallNow:)`` has something to do; nil when only an input brings work.
    var nextWake: Milliseconds? { get }
    /// After ``end(now:wallNow:)``: nothing is left to do.
    var isSettled: Bool { get }
}

/// What a reporter's core decided, carried out in order by its runner.
package enum ReporterAction<Effect: Sendable>: Sendable {
    /// Carry this out at the edge, one at a time; its answer goes back to the core.
    case perform(Effect)
    /// Publish on the daemon's hub: what the player was told.
    case publish(DaemonNotification)
    /// A line of the reporter's log.
    case log(LogLine)
}

/// Which refused input lines are logged: the first `perSecond` of each client in each second of
/// its own. The others are only counted, and one line says how many once that second is over (at
/// the client's next refusal) or when the client leaves. A client writing a million bad lines
/// costs a few log lines a second; the `badLines` counter still counts every one.
///
/// Pure: the time is given, in milliseconds of a monotonic clock.
package struct RefusalLogLimit: Sendable {
    package static let perSecond = 5
    static let window: Milliseconds = 1000

    /// What to log for one refusal.
    package struct Verdict: Equatable, Sendable {
        /// Refusals of this client not logged in its last second, to report before this one; 0 when none.
        package var unloggedBefore: Int
        /// Whether this refusal gets its own line.
        package var logged: Bool
    }

    private struct Second {
        var start: Milliseconds
        var logged = 0
        var unlogged = 0
    }

    private var seconds: [InputClient: Second] = [:]

    package init() {}

    package mutating func refused(by client: InputClient, at now: Milliseconds) -> Verdict {
        var current = seconds[client] ?? Second(start: now)
        var unloggedBefore = 0
        if now - current.start >= Self.window || now < current.start {
            unloggedBefore = current.unlogged
            current = Second(start: now)
        }
        let logged = current.logged < Self.perSecond
        if logged { current.logged += 1 } else { current.unlogged += 1 }
        seconds[client] = current
        return Verdict(unloggedBefore: unloggedBefore, logged: logged)
    }

    /// The client left: its refusals not logged and not yet reported, which it forgets.
    package mutating func left(_ client: InputClient) -> Int {
        seconds.removeValue(forKey: client)?.unlogged ?? 0
    }
}

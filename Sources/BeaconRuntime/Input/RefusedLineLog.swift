import BeaconDomain
import Logging
import Synchronization

/// Logs refused input lines: the first few of each client each second (see ``RefusalLogLimit``),
/// then how many were not logged. Used from the tasks that read the lines, without the daemon actor.
package final class RefusedLineLog: Sendable {
    private let limit = Mutex(RefusalLogLimit())
    private let logger: Logger
    private let time: TimeSource

    init(logger: Logger, time: TimeSource) {
        self.logger = logger
        self.time = time
    }

    /// One refused line of `client`; `line` is the line, when it was text.
    func refused(_ reason: String, line: String?, from client: InputClient) {
        let verdict = limit.withLock { $0.refused(by: client, at: time.now()) }
        logUnlogged(verdict.unloggedBefore, of: client)
        if verdict.logged {
            let shown = line.map { " line=\"\(Self.printable(SecretRedaction.redacted($0)))\"" } ?? ""
            logger.warning("bad input line ignored reason=\"\(reason)\"\(shown) client=\(client)")
        }
    }

    /// A client's input ended (its connection closed, or stdin): the count of its refused lines not logged yet.
    package func inputEnded(from client: InputClient) {
        logUnlogged(limit.withLock { $0.left(client) }, of: client)
    }

    private func logUnlogged(_ count: Int, of client: InputClient) {
        guard count > 0 else { return }
        logger.warning("bad input lines not logged, over \(RefusalLogLimit.perSecond) a second client=\(client) count=\(count)")
    }

    /// A line as it may be logged: bounded, control characters escaped.
    static func printable(_ text: String) -> String {
        var shown = ""
        for scalar in text.unicodeScalars.prefix(120) {
            shown += scalar.value < 0x20 || scalar == "\"" || scalar == "\\" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return text.unicodeScalars.count > 120 ? shown + "…" : shown
    }
}

import BeaconDomain

/// Where a reporter's core meets the world: it carries out the core's effects (requests on the
/// reporter's own HTTP client, bookmarks) and shows the core in `status`. Everything else a
/// reporter needs, its ``ReporterRunner`` does the same way for all of them.
package protocol ReporterEdge: Sendable {
    associatedtype Core: ReporterCore

    var name: ReporterName { get }
    /// Carries out `effect`; in quiet mode a request is computed and not sent. Cancelled when the
    /// drain deadline passes, it must then return.
    func perform(_ effect: Core.Effect, quiet: Bool) async -> Performed<Core.Answer>
    /// What `status` shows of `core`; the runner adds the last request and its own counters.
    /// `quiet`: the daemon computes everything and sends nothing.
    func status(of core: Core, enabled: Bool, quiet: Bool, draining: Bool, wallOffset: Milliseconds) -> ReporterStatus
}

/// What carrying out one effect came to.
package struct Performed<Answer: Sendable>: Sendable {
    /// For the core; nil when it waits for none.
    package var answer: Answer?
    /// The request as status shows it (`<event> <url without query>`), when one was made, and
    /// when it left (wall clock, epoch ms).
    package var request: String?
    package var requestedAt: Milliseconds?
    /// Its answer in a few words (`HTTP 204`, why there was none).
    package var result: String?
    /// The counter it adds one to (`sent`, `failed`, `notSent`...).
    package var counter: String?

    package init(answer: Answer?, request: String? = nil, requestedAt: Milliseconds? = nil, result: String? = nil, counter: String? = nil) {
        self.answer = answer
        self.request = request
        self.requestedAt = requestedAt
        self.result = result
        self.counter = counter
    }
}

import BeaconDomain

/// The line protocol of stdin, the control socket and the demo's player. Each line is parsed
/// in the task that read it; the daemon actor gets only what needs its state: a command, or a
/// refused line to count and log (once per line). `status` is assembled from the daemon's
/// snapshot and the reporters', `events` answered from the event history and `reporter` by the
/// reporters, all outside the actor. A `load` makes its client the player's channel (``PlayerChannel``).
package struct ControlProtocol: Sendable {
    package let daemon: BeaconDaemon
    package let events: EventHistoryRecorder
    /// Nil where the daemon runs without reporters (tests of the daemon alone).
    package let reporters: ReporterRegistry?
    package let player: PlayerChannel

    package init(
        daemon: BeaconDaemon, events: EventHistoryRecorder, reporters: ReporterRegistry? = nil, player: PlayerChannel = PlayerChannel()
    ) {
        self.daemon = daemon
        self.events = events
        self.reporters = reporters
        self.player = player
    }

    /// What `status` shows: the daemon's report with every reporter's status.
    package func statusReport() async -> StatusReport {
        var report = await daemon.statusReport()
        report.reporters = await reporters?.statuses() ?? []
        report.audit = await daemon.audit.status()
        return report
    }

    /// Answers one line of the control socket: the reply, if any, may be a stream.
    package func reply(to line: RawLine, from client: InputClient) async -> ControlReply {
        switch line {
        case .unreadable(let rejection):
            return await refused(rejection.description, line: nil, from: client)
        case .text(let text):
            switch LineParser.parse(text) {
            case .failure(let error): return await refused(error.reason, line: text, from: client)
            case .success(.events(follow: true, let after)): return .stream(events.follow(after: after))
            case .success(.events(follow: false, _)): return .line(events.reply().jsonLine())
            case .success(.status): return .line(await statusReport().jsonLine())
            case .success(.audit(let query)): return .line(JSONLine.encode(daemon.audit.reply(to: query)))
            case .success(.reporter(let command)):
                return .line(await reporters?.perform(command) ?? ControlReply.errorLine("this daemon runs no reporters"))
            case .success(let command):
                // Before the daemon hears of the load: what its playback tells the player from then on goes there.
                let updates = if case .load = command { player.loading(from: client) } else { AsyncStream<String>?.none }
                guard let reply = await daemon.perform(command, line: text, from: client) else { return .none }
                return updates.map { .lineAndUpdates(reply, updates: $0) } ?? .line(reply)
            }
        }
    }

    /// Handles one line of stdin or the demo's player; returns the reply, if the line asks for
    /// one. A stream (`events follow`) needs the control socket: here it is refused.
    package func handle(_ line: RawLine, from client: InputClient = .standardInput) async -> String? {
        switch await reply(to: line, from: client) {
        case .none: nil
        case .line(let reply), .lineAndUpdates(let reply, _): reply
        case .stream: ControlReply.errorLine("'events follow' needs the control socket")
        }
    }

    /// Counted and logged by the daemon, answered here.
    private func refused(_ reason: String, line: String?, from client: InputClient) async -> ControlReply {
        await daemon.lineRefused(reason, line: line, from: client)
        return .line(ControlReply.errorLine(reason))
    }

    /// A client's input ended (its connection closed, or stdin).
    package func inputEnded(from client: InputClient) async {
        daemon.refusedLines.inputEnded(from: client)
        player.clientLeft(client)
    }
}

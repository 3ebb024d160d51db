import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconStorage
import BeaconTerminal

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Show the audit: every tracking event's story (due, each request, given up, never fired and why), and sessions.",
        discussion: """
            Read from the journal in the state directory, whether the daemon runs or not; from the \
            daemon's memory when it runs without a journal. Oldest first: UTC time, record, outcome, \
            session, ad break, ad, event, and the request's host, answer and latency or the reason. \
            --json prints each record as one JSON line. 'beaconctl audit explain <session> <ad> <event>' \
            says in one paragraph why an event did or did not fire.
            """,
        subcommands: [AuditListCommand.self, AuditExplainCommand.self],
        defaultSubcommand: AuditListCommand.self
    )
}

/// Where the audit is read, and how: the options every `audit` command shares.
struct AuditSource: ParsableArguments {
    @OptionGroup var socket: SocketOption

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Read the journal in this directory (default: the running daemon's, else the configured one).", valueName: "dir"))
    var stateDir: String?

    /// The records `query` selects: from the file named, else as the daemon says (its journal's
    /// file, or its memory), else from the configured state directory's file.
    func records(_ query: AuditQuery) async throws -> [AuditRecord] {
        if let stateDir { return try Self.read(query, directory: stateDir) }
        let line = "audit " + JSONLine.encode(query)
        if let reply = try? await ControlSocketClient.request(path: socket.path, line: line, timeout: .seconds(10), maxReplyBytes: 64 << 20),
            let answer = try? JSONDecoder().decode(AuditReply.self, from: Data(reply.utf8))
        {
            if let directory = answer.directory { return try Self.read(query, directory: directory) }
            return answer.records ?? []
        }
        let environment = ProcessInfo.processInfo.environment
        let directory = (try? SettingsLoader.load(environment: environment))?.settings.stateDir ?? StateDirectory.standard(environment: environment)
        return try Self.read(query, directory: directory)
    }

    private static func read(_ query: AuditQuery, directory: String) throws -> [AuditRecord] {
        do {
            return try SQLiteAuditReader(directory: directory).records(query).map(\.record)
        } catch {
            StandardOutput.writeError("beaconctl: \(error.reason)")
            throw ExitCode(1)
        }
    }
}

struct AuditListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List audit records, filtered (the default).")

    @OptionGroup var source: AuditSource

    @Option(help: ArgumentHelp("Only this session (its id; a stream without one: its media URL without the query).", valueName: "id"))
    var session: String?

    @Option(name: .customLong("ad-break"), help: ArgumentHelp("Only this ad break.", valueName: "id"))
    var adBreak: String?

    @Option(help: ArgumentHelp("Only this ad.", valueName: "id"))
    var ad: String?

    @Option(help: ArgumentHelp("Only this tracking event type (impression, start, complete...).", valueName: "type"))
    var event: String?

    @Option(help: ArgumentHelp("Only records at or after this time: ISO 8601 (2026-11-28T10:00:00Z) or a duration ago (90s, 30m, 2h, 7d).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only this outcome: delivered, failed, given-up, not-fired.", valueName: "outcome"))
    var outcome: String?

    @Option(help: ArgumentHelp("At most the newest N records.", valueName: "N"))
    var limit: Int?

    @Flag(help: "Print each record as one JSON line.")
    var json = false

    func validate() throws {
        if let since, AuditSince.parse(since, now: 0) == nil {
            throw ValidationError("--since '\(since)' is neither an ISO-8601 time nor a duration such as 2h")
        }
        if let outcome, AuditOutcome(rawValue: outcome) == nil {
            throw ValidationError("--outcome takes \(AuditOutcome.allCases.map(\.rawValue).joined(separator: ", ")), not '\(outcome)'")
        }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let now = Milliseconds(Date().timeIntervalSince1970 * 1000)
        let query = AuditQuery(
            sessionID: session, adBreakID: adBreak, adID: ad, event: event.map(TrackingEventType.init(named:)),
            since: since.flatMap { AuditSince.parse($0, now: now) }, outcome: outcome.flatMap(AuditOutcome.init(rawValue:)), limit: limit)
        for record in try await source.records(query) {
            StandardOutput.writeLine(json ? record.jsonLine : AuditView.line(record))
        }
    }
}

struct AuditExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain", abstract: "Say in one paragraph why a tracking event did or did not fire.")

    @OptionGroup var source: AuditSource

    @Argument(help: "The session id.") var session: String
    @Argument(help: "The ad id.") var ad: String
    @Argument(help: "The tracking event type (impression, start, firstQuartile, complete...).") var event: String

    @Option(name: .customLong("ad-break"), help: ArgumentHelp("The ad break, when the ad id is in more than one.", valueName: "id"))
    var adBreak: String?

    func run() async throws {
        let records = try await source.records(AuditQuery(sessionID: session))
        StandardOutput.writeLine(
            AuditExplanation.explain(records, sessionID: session, adID: ad, event: TrackingEventType(named: event), adBreakID: adBreak))
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of the event history, as `beaconctl events --json` prints it.
///
/// The field names are a contract with operators' tooling: fields may be added, never renamed.
package struct EventEntry: Sendable, Equatable, Codable {
    /// Numbers entries from 1, without gaps, for the daemon's lifetime: a follower that saw
    /// entry `n` resumes with `events follow n`.
    package var sequence: UInt64
    /// When it happened, epoch milliseconds (UTC, wall clock).
    package var time: Milliseconds
    /// How serious it is; `type` on the wire.
    package var severity: EventSeverity
    package var code: Int
    package var name: String
    package var details: [String: String]

    private enum CodingKeys: String, CodingKey {
        case sequence, time
        case severity = "type"
        case code, name, details
    }

    package init(sequence: UInt64, time: Milliseconds, event: HistoryEvent) {
        self.sequence = sequence
        self.time = time
        self.severity = event.severity
        self.code = event.code
        self.name = event.name
        self.details = event.details
    }

    package func jsonLine() -> String {
        JSONLine.encode(self)
    }

    package static func decode(jsonLine: String) throws -> EventEntry {
        try JSONDecoder().decode(EventEntry.self, from: Data(jsonLine.utf8))
    }

    /// One line for a person: `UTC time  SEVERITY  code  name  key=value...`.
    package func humanLine() -> String {
        let severity = self.severity.rawValue.uppercased()
        let padding = String(repeating: " ", count: max(0, 7 - severity.count))
        return "\(UTCTime.format(time))  \(severity)\(padding)  \(code)  \(name)\(detailsText)"
    }

    /// The details as `  key=value` each, keys sorted, values with spaces, quotes or control
    /// characters quoted.
    package var detailsText: String {
        details.keys.sorted().map { "  \($0)=\(Self.quotedIfNeeded(details[$0] ?? ""))" }.joined()
    }

    private static func quotedIfNeeded(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "\\" && $0.value != 0x7F }
        if plain { return value }
        var quoted = "\""
        for scalar in value.unicodeScalars {
            quoted += scalar.value < 0x20 || scalar.value == 0x7F || scalar == "\"" || scalar == "\\" ? scalar.escaped(asASCII: true) : String(scalar)
        }
        return quoted + "\""
    }
}

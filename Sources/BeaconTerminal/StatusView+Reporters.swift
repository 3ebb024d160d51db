import BeaconDomain

extension StatusView {
    /// One line per reporter: switched on or off, its own state, its last request and answer,
    /// failures in a row and what it counted; what else it knows on a line below.
    static func reporterLines(_ reporters: [ReporterStatus]) -> [String] {
        reporters.flatMap { reporter -> [String] in
            guard reporter.configured else { return ["  \(padded(reporter.name.rawValue, 16)) not configured"] }
            var text = "  \(padded(reporter.name.rawValue, 16)) \(padded(reporter.enabled ? "enabled" : "DISABLED", 9)) \(reporter.state)"
            if let answer = reporter.lastAnswer {
                let at = reporter.lastRequestAt.map { " at \(UTCTime.format($0))" } ?? ""
                text += "   last \(answer)\(at)" + (reporter.lastRequest.map { " (\($0))" } ?? "")
            }
            if reporter.failuresInARow > 0 { text += "   \(reporter.failuresInARow) failed in a row" }
            if !reporter.counters.isEmpty {
                text += "   " + reporter.counters.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "  ")
            }
            let details = reporter.details.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            return [text] + (details.isEmpty ? [] : ["    " + details.joined(separator: "   ")])
        }
    }
}

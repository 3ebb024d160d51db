/// What one reporter shows in `status` and `reporter list`.
package struct ReporterStatus: Sendable, Equatable, Codable {
    package var name: ReporterName
    /// Whether it was configured (an endpoint, for the ones that need one).
    package var configured: Bool
    package var enabled: Bool
    /// Its own state, in a few words (`idle`, `session open`, `error state`, `stopped`...).
    package var state: String
    /// The last request, as `<event> <url without query>`, and when it left (wall clock, epoch ms).
    package var lastRequest: String?
    package var lastRequestAt: Milliseconds?
    /// The last answer: an HTTP status or why there was none.
    package var lastAnswer: String?
    /// Failed requests in a row.
    package var failuresInARow: Int
    /// What it counted (`sent`, `failed`, `dropped`, ...), by name.
    package var counters: [String: Int]
    /// What else it knows that an operator asks for (session id, next due...), by name.
    package var details: [String: String]

    package init(
        name: ReporterName, configured: Bool, enabled: Bool, state: String, lastRequest: String? = nil,
        lastRequestAt: Milliseconds? = nil, lastAnswer: String? = nil, failuresInARow: Int = 0,
        counters: [String: Int] = [:], details: [String: String] = [:]
    ) {
        self.name = name
        self.configured = configured
        self.enabled = enabled
        self.state = state
        self.lastRequest = lastRequest
        self.lastRequestAt = lastRequestAt
        self.lastAnswer = lastAnswer
        self.failuresInARow = failuresInARow
        self.counters = counters
        self.details = details
    }

    private enum CodingKeys: String, CodingKey {
        case name, configured, enabled, state, lastRequest, lastRequestAt, lastAnswer, failuresInARow, counters, details
    }

    package func encode(to encoder: any Encoder) throws {
        // Absent values are written as null, as in the status document: consumers see every field.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(configured, forKey: .configured)
        try container.encode(enabled, forKey: .enabled)
        try container.encode(state, forKey: .state)
        try container.encode(lastRequest, forKey: .lastRequest)
        try container.encode(lastRequestAt, forKey: .lastRequestAt)
        try container.encode(lastAnswer, forKey: .lastAnswer)
        try container.encode(failuresInARow, forKey: .failuresInARow)
        try container.encode(counters, forKey: .counters)
        try container.encode(details, forKey: .details)
    }
}

/// What one reporter shows in `status` and `reporter list`.
public struct ReporterStatus: Sendable, Equatable, Codable {
    public var name: ReporterName
    /// Whether it was configured (an endpoint, for the ones that need one).
    public var configured: Bool
    public var enabled: Bool
    /// Its own state, in a few words (`idle`, `session open`, `error state`, `stopped`...).
    public var state: String
    /// The last request, as `<event> <url without query>`, and when it left (wall clock, epoch ms).
    public var lastRequest: String?
    public var lastRequestAt: Milliseconds?
    /// The last answer: an HTTP status or why there was none.
    public var lastAnswer: String?
    /// Failed requests in a row.
    public var failuresInARow: Int
    /// What it counted (`sent`, `failed`, `dropped`, ...), by name.
    public var counters: [String: Int]
    /// What else it knows that an operator asks for (session id, next due...), by name.
    public var details: [String: String]

    public init(
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
}

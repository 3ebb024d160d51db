import BeaconCore

/// Answers that simulate slow or silent servers, for the demo's ad service and tests.
extension HTTPServer.Response {
    /// Waits `delay`, then answers with `response`; returns early if the server stops.
    public static func delayed(_ delay: Duration, _ response: Self) async -> Self {
        try? await Task.sleep(for: delay)
        return response
    }

    /// Never answers: suspends until the server stops, which cancels the handler.
    /// The connection stays open meanwhile and nothing is written to it.
    public static func noAnswer() async -> Self {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
        return .status(503)
    }
}

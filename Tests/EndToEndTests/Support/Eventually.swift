/// A failure of the harness itself (a deadline passed, a process misbehaved), with what it saw.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds; throws, saying `what`, once `timeout` passed.
func eventually(
    timeout: Duration = .seconds(10),
    _ what: @autoclosure () -> String = "a condition",
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: .milliseconds(25))
    }
}

/// Polls `produce` until it returns a value; throws once `timeout` passed.
func eventuallyValue<T>(
    timeout: Duration = .seconds(10),
    _ what: @autoclosure () -> String,
    _ produce: () async throws -> T?
) async throws -> T {
    let deadline = ContinuousClock.now + timeout
    while true {
        if let value = try await produce() { return value }
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out after \(timeout) waiting for \(what())") }
        try await Task.sleep(for: .milliseconds(25))
    }
}

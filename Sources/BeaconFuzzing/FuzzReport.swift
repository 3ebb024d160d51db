/// What a fuzz run did, and the first property it found broken.
public struct FuzzReport: Sendable, CustomStringConvertible {
    public var target: FuzzTarget
    public var seed: UInt64
    /// Inputs checked.
    public var executions = 0
    /// Inputs the target accepted (some line parsed, the document decoded).
    public var accepted = 0
    public var failure: FuzzFailure?

    public var description: String {
        let outcome = failure.map { "FAILED: \($0)" } ?? "no property broken"
        return "fuzz \(target) seed \(seed): \(executions) inputs, \(accepted) accepted, \(outcome)"
    }
}

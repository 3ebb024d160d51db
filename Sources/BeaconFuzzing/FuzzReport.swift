/// What a fuzz run did, and the first property it found broken.
package struct FuzzReport: Sendable, CustomStringConvertible {
    package var target: FuzzTarget
    package var seed: UInt64
    /// Inputs checked.
    package var executions = 0
    /// Inputs the target accepted (some line parsed, the document decoded).
    package var accepted = 0
    package var failure: FuzzFailure?

    package var description: String {
        let outcome = failure.map { "FAILED: \($0)" } ?? "no property broken"
        return "fuzz \(target) seed \(seed): \(executions) inputs, \(accepted) accepted, \(outcome)"
    }
}

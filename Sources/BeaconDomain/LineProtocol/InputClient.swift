/// Who sent an input line: standard input, or one connection to the control socket, numbered in
/// the order they came. Logs name it so: nothing the client sent, nothing secret.
package struct InputClient: Sendable, Hashable, CustomStringConvertible {
    package let description: String

    package static let standardInput = InputClient(description: "stdin")

    package static func controlConnection(_ number: Int) -> InputClient {
        InputClient(description: "socket#\(number)")
    }
}

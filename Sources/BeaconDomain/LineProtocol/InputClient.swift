/// Who sent an input line: standard input, or one connection to the control socket, numbered in
/// the order they came. Logs name it so: nothing the client sent, nothing secret.
public struct InputClient: Sendable, Hashable, CustomStringConvertible {
    public let description: String

    public static let standardInput = InputClient(description: "stdin")

    public static func controlConnection(_ number: Int) -> InputClient {
        InputClient(description: "socket#\(number)")
    }
}

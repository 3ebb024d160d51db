import BeaconDomain

/// What the control socket sends back for one line.
package enum ControlReply: Sendable {
    /// Nothing: the line asks for no reply.
    case none
    /// One line (without its terminator).
    case line(String)
    /// Lines to send as they come (each without its terminator), for as long as the stream
    /// runs and the client stays; the connection then closes. Later lines from the client are
    /// ignored.
    case stream(AsyncStream<String>)
    /// One line now, then the lines of `updates` as they come, between the replies to the
    /// client's later lines, for as long as the client stays: the player notifications of the
    /// playback a `load` started. A line the client is too slow to take is dropped.
    case lineAndUpdates(String, updates: AsyncStream<String>)
}

extension ControlReply {
    /// The reply to a line refused or failed: `{"error": reason}`.
    package static func errorLine(_ reason: String) -> String {
        struct Reply: Encodable { var error: String }
        return JSONLine.encode(Reply(error: reason))
    }
}

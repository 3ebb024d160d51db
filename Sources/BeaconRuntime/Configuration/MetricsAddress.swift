import BeaconDomain
import NIOCore

/// Where the `/metrics` endpoint listens: an IP address and a port.
///
/// Loopback unless the operator names another address: a bare port and `localhost` mean
/// 127.0.0.1, and `:PORT`, which some exporters read as "every interface", is refused as
/// ambiguous. Host names other than `localhost` are refused too, so start-up never waits on DNS.
package struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
    /// An IP address in its canonical form (`127.0.0.1`, `::1`).
    package var host: String
    /// 0 lets the system pick a free port (the daemon logs the one it got).
    package var port: Int

    /// The default host.
    package static let loopback = "127.0.0.1"

    /// Parses `PORT`, `localhost:PORT`, `IPV4:PORT` or `[IPV6]:PORT`.
    package init(parsing text: String) throws(ParseError) {
        let (hostText, portText) = try Self.split(text)
        guard Self.isDigits(portText), portText.count <= 5, let port = Int(portText), port <= 65535 else {
            throw ParseError(text: text, reason: "the port must be a number from 0 to 65535")
        }
        if let hostText, hostText.lowercased() != "localhost" {
            // inet_pton accepts exactly the IP literals; it also yields the canonical spelling.
            guard let canonical = (try? SocketAddress(ipAddress: hostText, port: port))?.ipAddress else {
                throw ParseError(text: text, reason: "the host must be an IP address or localhost")
            }
            self.host = canonical
        } else {
            self.host = Self.loopback
        }
        self.port = port
    }

    /// `HOST:PORT`, with an IPv6 host in brackets.
    package var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Whether only this host can connect: 127.0.0.0/8 or ::1.
    package var isLoopback: Bool {
        host.hasPrefix("127.") || host == "::1"
    }

    /// The host part (nil for a bare port) and the port part.
    private static func split(_ text: String) throws(ParseError) -> (host: String?, port: Substring) {
        if isDigits(Substring(text)) { return (nil, Substring(text)) }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ParseError(text: text, reason: "expected [IPV6]:PORT")
            }
            let host = String(text[text.index(after: text.startIndex)..<close])
            return (host, text[text.index(close, offsetBy: 2)...])
        }
        guard let colon = text.lastIndex(of: ":") else {
            throw ParseError(text: text, reason: "expected PORT or HOST:PORT")
        }
        let host = text[..<colon]
        if host.isEmpty {
            throw ParseError(text: text, reason: "no host: give 127.0.0.1:PORT for this host only, 0.0.0.0:PORT for every interface")
        }
        if host.contains(":") {
            throw ParseError(text: text, reason: "put an IPv6 address in brackets: [IPV6]:PORT")
        }
        return (String(host), text[text.index(after: colon)...])
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Why a metrics address was refused.
    package struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        package var text: String
        package var reason: String

        package var description: String { "'\(text)': \(reason)" }
    }
}

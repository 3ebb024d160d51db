#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the metrics endpoint listens: `PORT` or `HOST:PORT` (`[v6]:PORT` for IPv6).
///
/// A bare port and `localhost` mean 127.0.0.1: the endpoint stays on loopback unless another
/// host is written out.
public struct MetricsAddress: Sendable, Equatable, CustomStringConvertible {
    /// An IPv4 or IPv6 address (without brackets) or a host name.
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    static let loopback = "127.0.0.1"
    static let expected = "must be PORT or HOST:PORT with a port from 1 to 65535"

    /// Parses `text`; the error is a reason to show after the key.
    public static func parse(_ text: String) -> Result<MetricsAddress, ParseFailure> {
        let (host, portText): (Substring, Substring)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(ParseFailure(expected))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
            guard isIPv6(host) else { return .failure(ParseFailure("'\(host)' is not an IPv6 address")) }
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            guard !host.contains(":") else { return .failure(ParseFailure("write an IPv6 address in brackets: [\(host)]:PORT")) }
            guard isIPv4(host) || isHostName(host) else { return .failure(ParseFailure("'\(host)' is not an IP address or host name")) }
        } else {
            host = "localhost"
            portText = Substring(text)
        }
        guard !portText.isEmpty, portText.allSatisfy({ ("0"..."9").contains($0) }), let port = Int(portText), (1...65535).contains(port) else {
            return .failure(ParseFailure(expected))
        }
        return .success(MetricsAddress(host: host == "localhost" ? loopback : String(host), port: port))
    }

    /// Why an address text was refused.
    public struct ParseFailure: Error, Equatable {
        public var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `127.0.0.1:9100`, `[::1]:9100`: parses back to the same address.
    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    private static func isIPv4(_ text: Substring) -> Bool {
        var address = in_addr()
        return inet_pton(AF_INET, String(text), &address) == 1
    }

    private static func isIPv6(_ text: Substring) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET6, String(text), &address) == 1
    }

    /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, the last one not
    /// all digits (that would be a mistyped IPv4 address).
    private static func isHostName(_ text: Substring) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let last = labels.last, !last.allSatisfy(\.isNumber) else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
        }
    }
}

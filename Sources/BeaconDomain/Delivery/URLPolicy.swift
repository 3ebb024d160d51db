#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which URLs beaconctl requests. Media, metadata and signaling URLs come from the network or
/// the command line, so only http and https with a host, within a sane length.
package enum URLPolicy {
    package static let allowedSchemes: Set<String> = ["http", "https"]
    /// Longer URLs are refused: no ad server needs more, and the metadata is untrusted.
    package static let maxURLLength = 8192

    /// Why `url` must not be requested, or nil when it may be.
    package static func refusal(of url: String) -> String? {
        guard url.utf8.count <= maxURLLength else { return "URL longer than \(maxURLLength) bytes" }
        guard let scheme = scheme(of: url), let components = URLComponents(string: url) else { return "not a valid URL" }
        guard allowedSchemes.contains(scheme) else { return "scheme '\(scheme)' is not http or https" }
        guard let host = components.host, !host.isEmpty else { return "URL has no host" }
        return nil
    }

    /// The lowercased scheme of `url` per RFC 3986, or nil if it has none.
    package static func scheme(of url: String) -> String? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        let scheme = url[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCIILetter else { return nil }
        let valid = scheme.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || "+-.".unicodeScalars.contains($0) }
        return valid ? scheme.lowercased() : nil
    }

    /// The key of the host `url` goes to: scheme, host and port as written, lowercased, without
    /// user information. A URL without an authority gets a key of its own.
    package static func hostKey(of url: String) -> String {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), bytes[colon...].starts(with: "://".utf8) else { return url }
        let start = bytes.index(colon, offsetBy: 3)
        let end = bytes[start...].firstIndex { "/?#".utf8.contains($0) } ?? bytes.endIndex
        let hostStart = bytes[start..<end].lastIndex(of: UInt8(ascii: "@")).map { bytes.index(after: $0) } ?? start
        guard hostStart < end else { return url }
        return (url[..<start] + url[hostStart..<end]).lowercased()
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

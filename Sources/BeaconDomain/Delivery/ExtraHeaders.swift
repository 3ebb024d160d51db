/// The extra request headers a reporter sends: from its configuration, and for the heartbeat also
/// a playback's own (`heartbeatHeaders`). Both pass the same rules, so a header a player hands over
/// cannot do what a configured one could not.
package enum ExtraHeaders {
    /// The most extra headers, and the longest name and value of one.
    package static let maxCount = 32
    package static let maxNameBytes = 64
    package static let maxValueBytes = 1024

    /// Why `headers` cannot be sent; nil when they can. `reserved` are the lower-case names the
    /// reporter writes itself.
    package static func refusal(of headers: [String: String], reserved: Set<String>) -> String? {
        guard headers.count <= maxCount else { return "must be at most \(maxCount) headers" }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.utf8.count <= maxNameBytes, name.utf8.allSatisfy(isTokenByte) else {
                return "header name '\(name.prefix(maxNameBytes))' is not an HTTP token"
            }
            guard !reserved.contains(name.lowercased()) else { return "header \(name) is set by the reporter" }
            guard value.utf8.count <= maxValueBytes, value.utf8.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 })
            else { return "header \(name)'s value must be at most \(maxValueBytes) bytes without control characters" }
        }
        return nil
    }

    /// `base` with `overrides` on top: a name given in both (in any case) takes the override's value.
    package static func merged(_ base: [String: String], with overrides: [String: String]) -> [String: String] {
        let overridden = Set(overrides.keys.map { $0.lowercased() })
        return base.filter { !overridden.contains($0.key.lowercased()) }.merging(overrides) { _, override in override }
    }

    /// The headers as logs and printed settings show them: each value masked, the names kept.
    package static func masked(_ headers: [String: String]) -> [String: String] {
        headers.mapValues { _ in "***" }
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }
}

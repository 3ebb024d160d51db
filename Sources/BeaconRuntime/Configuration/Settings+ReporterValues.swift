import BeaconDomain

/// The kinds of value only the reporters' tables take.
extension Settings {
    /// The longest ping interval: Adobe's back end closes a session after 10 minutes without events.
    static let maxPingSeconds = 600.0
    /// The most extra headers, and the longest value of one.
    static let maxHeaders = 32
    static let maxHeaderValueBytes = 1024
    /// Headers the heartbeat reporter writes itself.
    static let reservedHeaders: Set<String> = ["content-type", "content-length", "host", "x-heartbeat-token"]

    /// Text shown and sent as is (a channel, a player name): printable, at most `maxBytes`.
    static func label(_ value: SettingValue, maxBytes: Int = 255) throws(Refusal) -> String {
        let expected = "must be at most \(maxBytes) bytes of printable text, in quotes"
        let label = try text(value, expected)
        guard label.utf8.count <= maxBytes, !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Refusal(reason: expected)
        }
        return label
    }

    /// A whole number in `range`.
    static func count(_ value: SettingValue, in range: ClosedRange<Int>) throws(Refusal) -> Int {
        guard let number = number(value), number == number.rounded(), Double(range.lowerBound) <= number, number <= Double(range.upperBound)
        else { throw Refusal(reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return Int(number)
    }

    /// `{"Name" = "value", ...}` in the file; `Name: value; Name: value` as a flag or variable.
    static func headers(_ value: SettingValue) throws(Refusal) -> [String: String] {
        var headers: [String: String] = [:]
        switch value {
        case .table(let table):
            for (name, value) in table {
                guard case .text(let text) = value else { throw Refusal(reason: "header \(name.prefix(64)) must be a string") }
                headers[name] = text
            }
        case .text(let text):
            for pair in text.split(separator: ";") where !pair.allSatisfy(\.isWhitespace) {
                guard let colon = pair.firstIndex(of: ":") else { throw Refusal(reason: "must be 'Name: value' pairs separated by ';'") }
                headers[pair[..<colon].trimmedOfSpaces] = pair[pair.index(after: colon)...].trimmedOfSpaces
            }
        case .number, .boolean, .unsupported:
            throw Refusal(reason: "must be a table of strings ({ \"Name\" = \"value\" })")
        }
        guard headers.count <= maxHeaders else { throw Refusal(reason: "must be at most \(maxHeaders) headers") }
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.count <= 64, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw Refusal(reason: "header name '\(name.prefix(64))' is not an HTTP token")
            }
            guard !reservedHeaders.contains(name.lowercased()) else { throw Refusal(reason: "header \(name) is set by the reporter") }
            guard value.utf8.count <= maxHeaderValueBytes, value.utf8.allSatisfy({ $0 == 0x09 || (0x20...0x7E).contains($0) || $0 >= 0x80 })
            else { throw Refusal(reason: "header \(name)'s value must be at most \(maxHeaderValueBytes) bytes without control characters") }
        }
        return headers
    }

    /// RFC 9110's `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// A duration in seconds, as the file writes it.
    static func seconds(of duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The table as the file writes it inline: `{ "A" = "1", "B" = "2" }`, by name.
    static func inlineTable(_ headers: [String: String]) -> String {
        "{ " + headers.sorted { $0.key < $1.key }.map { "\(quoted($0.key)) = \(quoted($0.value))" }.joined(separator: ", ") + " }"
    }
}

extension Substring {
    fileprivate var trimmedOfSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

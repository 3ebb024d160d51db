import BeaconDomain

/// The kinds of value only the reporters' tables take.
extension Settings {
    /// The longest ping interval: Adobe's back end closes a session after 10 minutes without events.
    static let maxPingSeconds = 600.0
    /// Text shown and sent as is (a channel, a player name): printable, at most `maxBytes`.
    static func label(_ value: SettingValue, maxBytes: Int = 255) throws(Refusal) -> String {
        let expected = "must be at most \(maxBytes) bytes of printable text, in quotes"
        let label = try text(value, expected)
        guard label.utf8.count <= maxBytes, !label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw Refusal(reason: expected)
        }
        return label
    }

    /// A label that may be left out: nil when empty.
    static func optionalLabel(_ value: SettingValue) throws(Refusal) -> String? {
        let label = try label(value)
        return label.isEmpty ? nil : label
    }

    /// The viewer's consent as the `privacy` line names it: `optin`, `optout` or `unknown`.
    static func privacyStatus(_ value: SettingValue) throws(Refusal) -> PrivacyStatus {
        let expected = "must be one of " + PrivacyStatus.allCases.map(\.rawValue).joined(separator: ", ") + ", in quotes"
        guard let status = PrivacyStatus(rawValue: try text(value, expected).lowercased()) else { throw Refusal(reason: expected) }
        return status
    }

    /// A whole number in `range`.
    static func count(_ value: SettingValue, in range: ClosedRange<Int>) throws(Refusal) -> Int {
        guard let number = number(value), number == number.rounded(), Double(range.lowerBound) <= number, number <= Double(range.upperBound)
        else { throw Refusal(reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return Int(number)
    }

    /// `{"Name" = "value", ...}` in the file; `Name: value; Name: value` as a flag or variable.
    /// `reserved`: the lower-case names the reporter writes itself.
    static func headers(_ value: SettingValue, reserved: Set<String>) throws(Refusal) -> [String: String] {
        var headers: [String: String] = [:]
        switch value {
        case .table(let table):
            for (name, value) in table {
                guard case .text(let text) = value else { throw Refusal(reason: "header \(name.prefix(64)) must be a string") }
                headers[name] = text
            }
        case .text(let text):
            for (name, value) in try pairs(text, separatedBy: ";", between: ":", form: "'Name: value'") { headers[name] = value }
        case .number, .boolean, .unsupported:
            throw Refusal(reason: "must be a table of strings ({ \"Name\" = \"value\" })")
        }
        if let reason = ExtraHeaders.refusal(of: headers, reserved: reserved) { throw Refusal(reason: reason) }
        return headers
    }

    /// A number of bytes, written as one or as text with a binary unit (`512KiB`, `32 MiB`, `1GiB`).
    static func bytes(_ value: SettingValue, in range: ClosedRange<Int>) throws(Refusal) -> Int {
        let expected = "must be a number of bytes (or KiB, MiB, GiB) from \(range.lowerBound) to \(range.upperBound)"
        var number = number(value)
        if number == nil, case .text(let text) = value {
            let units: [(String, Double)] = [("KiB", 1024), ("MiB", 1024 * 1024), ("GiB", 1024 * 1024 * 1024)]
            for (unit, factor) in units where text.hasSuffix(unit) {
                number = Double(text.dropLast(unit.count).filter { $0 != " " }).map { $0 * factor }
            }
        }
        guard let number, number == number.rounded(), Double(range.lowerBound) <= number, number <= Double(range.upperBound) else {
            throw Refusal(reason: expected)
        }
        return Int(number)
    }

    /// `name<between>value` pairs separated by `separator`, as a flag or variable writes a table
    /// (`Name: value; Name: value`, `key=value,key=value`), each name and value trimmed.
    static func pairs(_ text: String, separatedBy separator: Character, between: Character, form: String) throws(Refusal) -> [(String, String)] {
        var pairs: [(String, String)] = []
        for pair in text.split(separator: separator) where !pair.allSatisfy(\.isWhitespace) {
            guard let middle = pair.firstIndex(of: between) else { throw Refusal(reason: "must be \(form) pairs separated by '\(separator)'") }
            pairs.append((pair[..<middle].trimmedOfSpaces, pair[pair.index(after: middle)...].trimmedOfSpaces))
        }
        return pairs
    }

    /// A duration in seconds, as the file writes it.
    static func seconds(of duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The table as the file writes it inline: `{ "A" = "1", "B" = "2" }`, by name. Printed
    /// settings pass headers through ``ExtraHeaders/masked(_:)``: a value may be an API key.
    static func inlineTable(_ headers: [String: String]) -> String {
        "{ " + headers.sorted { $0.key < $1.key }.map { "\(quoted($0.key)) = \(quoted($0.value))" }.joined(separator: ", ") + " }"
    }
}

extension Substring {
    /// Without the spaces and tabs around it.
    fileprivate var trimmedOfSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}

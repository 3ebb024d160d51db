/// Tokens a mutation may insert: numbers at the edges, keywords, punctuation. They are read from
/// a dictionary file in libFuzzer's format (`name="value"` or `"value"` per line, `#` comments,
/// `\\`, `\"` and `\xNN` escapes), so the in-process runner and libFuzzer share one list.
package struct FuzzDictionary: Sendable, Equatable {
    package var tokens: [[UInt8]]

    package init(tokens: [[UInt8]]) {
        self.tokens = tokens
    }

    /// Parses a dictionary file; a malformed line is an error naming it, as libFuzzer makes it one.
    package init(parsing text: String) throws(FuzzSetupError) {
        var tokens: [[UInt8]] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let entry = line.drop { $0 == " " || $0 == "\t" }
            if entry.isEmpty || entry.hasPrefix("#") { continue }
            guard let token = Self.token(in: Array(entry.utf8)) else {
                throw FuzzSetupError("dictionary line \(number + 1) is not name=\"value\" or \"value\": \(line.prefix(80))")
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The unescaped bytes between the first `"` and the last one, when the line ends there.
    private static func token(in line: [UInt8]) -> [UInt8]? {
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        guard let open = line.firstIndex(of: quote), let close = line.lastIndex(of: quote), open < close,
            line[(close + 1)...].allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") })
        else { return nil }
        var token: [UInt8] = []
        var index = open + 1
        while index < close {
            let byte = line[index]
            index += 1
            guard byte == backslash else {
                token.append(byte)
                continue
            }
            guard index < close else { return nil }
            let escaped = line[index]
            index += 1
            switch escaped {
            case backslash, quote: token.append(escaped)
            case UInt8(ascii: "x"):
                guard index + 2 <= close, let value = UInt8(String(decoding: line[index..<index + 2], as: UTF8.self), radix: 16) else {
                    return nil
                }
                token.append(value)
                index += 2
            default: return nil
            }
        }
        return token
    }
}

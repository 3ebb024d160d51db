/// Input lines as they may be logged: the value of every key naming the heartbeat token a `load`
/// line carries (`"token"`, Quickplay's `"heartbeatToken"`) is replaced by `***`, so that a
/// refused line never puts a secret in the log.
package enum SecretRedaction {
    /// The keys whose values are secret, quoted as in JSON.
    static let secretKeys = HeartbeatOptions.Field.token.names.map { "\"\($0)\"" }

    package static func redacted(_ line: String) -> String {
        var text = Substring(line)
        var shown = ""
        while let key = secretKeys.compactMap({ text.firstRange(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            shown += text[..<key.upperBound]
            text = text[key.upperBound...]
            // Up to the colon, then the value: a string to its closing quote, anything else to the next `,` or `}`.
            let afterColon = text.drop { $0 == " " || $0 == "\t" }
            guard afterColon.first == ":" else { continue }
            let value = afterColon.dropFirst().drop { $0 == " " || $0 == "\t" }
            let isString = value.first == "\""
            shown += text[..<value.startIndex] + (isString ? "\"***\"" : "***")
            text = isString ? afterString(value.dropFirst()) : value.drop { $0 != "," && $0 != "}" }
        }
        return shown + text
    }

    /// What follows the string whose text starts `text`: after its closing quote, or nothing when it does not close.
    private static func afterString(_ text: Substring) -> Substring {
        var escaped = false
        for index in text.indices {
            if escaped {
                escaped = false
            } else if text[index] == "\\" {
                escaped = true
            } else if text[index] == "\"" {
                return text[text.index(after: index)...]
            }
        }
        return text[text.endIndex...]
    }
}

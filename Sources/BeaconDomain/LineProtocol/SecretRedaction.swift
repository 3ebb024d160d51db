/// Input lines as they may be logged: the value of every `"token"` key (the heartbeat token a
/// `load` line carries) is replaced by `***`, so that a refused line never puts a secret in the log.
package enum SecretRedaction {
    /// The key whose values are secret.
    static let secretKey = "\"token\""

    package static func redacted(_ line: String) -> String {
        var text = Substring(line)
        var shown = ""
        while let key = text.firstRange(of: secretKey) {
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

/// Input lines as they may be logged: the value of every key naming the heartbeat token a `load`
/// line carries (`"token"`, Quickplay's `"heartbeatToken"`) is replaced by `***`, and so is each
/// value of the playback's headers (`"headers"`, `"heartbeatHeaders"`: an API key may be one),
/// their names kept, so that a refused line never puts a secret in the log.
package enum SecretRedaction {
    /// The keys whose values are secret, quoted as in JSON.
    static let secretKeys = (HeartbeatOptions.Field.token.names + HeartbeatOptions.Field.headers.names).map { "\"\($0)\"" }

    package static func redacted(_ line: String) -> String {
        var text = Substring(line)
        var shown = ""
        while let key = secretKeys.compactMap({ text.firstRange(of: $0) }).min(by: { $0.lowerBound < $1.lowerBound }) {
            shown += text[..<key.upperBound]
            text = text[key.upperBound...]
            guard let value = valueAfterColon(text) else { continue }
            shown += text[..<value.startIndex]
            if value.first == "{" {
                text = maskingMembers(value.dropFirst(), into: &shown)
            } else {
                text = masking(value, into: &shown)
            }
        }
        return shown + text
    }

    /// Where the value starts when `text` is a colon and a value; nil when it is not.
    private static func valueAfterColon(_ text: Substring) -> Substring? {
        let afterColon = text.drop { $0 == " " || $0 == "\t" }
        guard afterColon.first == ":" else { return nil }
        return afterColon.dropFirst().drop { $0 == " " || $0 == "\t" }
    }

    /// Writes `***` for the value `text` starts with (a string to its closing quote, anything
    /// else to the next `,` or `}`), and returns what follows it.
    private static func masking(_ value: Substring, into shown: inout String) -> Substring {
        let isString = value.first == "\""
        shown += isString ? "\"***\"" : "***"
        return isString ? afterString(value.dropFirst()) : value.drop { $0 != "," && $0 != "}" }
    }

    /// Writes the object whose members `text` starts with, each name kept and each value masked,
    /// and returns what follows the object.
    private static func maskingMembers(_ members: Substring, into shown: inout String) -> Substring {
        shown += "{"
        var text = members
        while true {
            let separators = text.prefix { $0 == " " || $0 == "\t" || $0 == "," }
            shown += separators
            text = text[separators.endIndex...]
            guard text.first == "\"" else { break }
            let name = afterString(text.dropFirst())
            shown += text[..<name.startIndex]
            guard let value = valueAfterColon(name) else { return name }
            shown += name[..<value.startIndex]
            text = masking(value, into: &shown)
        }
        if text.first == "}" { shown += "}"; text = text.dropFirst() }
        return text
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

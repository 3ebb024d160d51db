/// One sample line of the Prometheus text exposition format, version 0.0.4:
/// `name{label="value",...} value [timestamp]`, read from its bytes.
package struct PrometheusSample: Sendable, Equatable {
    package struct Label: Sendable, Hashable {
        package var name: String
        package var value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package var name: String
    /// In the order written.
    package var labels: [Label]
    /// The value; `+Inf`, `-Inf` and `NaN` as the format writes them.
    package var value: Double

    package init(name: String, labels: [Label] = [], value: Double) {
        self.name = name
        self.labels = labels
        self.value = value
    }

    /// The sample `line` holds; nil when it holds none (a blank, a comment, or anything malformed).
    /// The format's optional timestamp is read and left out: the export says when it read the values.
    package init?(line: ArraySlice<UInt8>) {
        var rest = line.drop(while: Self.isBlank)
        guard let name = Self.name(from: &rest, allowingColon: true) else { return nil }
        rest = rest.drop(while: Self.isBlank)
        var labels: [Label] = []
        if rest.first == UInt8(ascii: "{") {
            rest.removeFirst()
            guard let read = Self.labels(from: &rest) else { return nil }
            labels = read
        }
        let fields = rest.split(whereSeparator: Self.isBlank)
        guard let text = fields.first, fields.count <= 2, let value = Double(String(decoding: text, as: UTF8.self)),
            fields.count == 1 || Int64(String(decoding: fields[1], as: UTF8.self)) != nil
        else { return nil }
        self.init(name: name, labels: labels, value: value)
    }

    /// The text of `escaped` with the format's escapes read: `\\` and `\n`, and `\"` when
    /// `quotes` (label values escape quotes, help texts do not). Any other backslash stays as written.
    static func unescaped(_ escaped: ArraySlice<UInt8>, quotes: Bool) -> String {
        var text: [UInt8] = []
        var bytes = escaped
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = bytes.first else {
                text.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "n"): text.append(0x0A)
            case UInt8(ascii: "\\"): text.append(next)
            case UInt8(ascii: "\"") where quotes: text.append(next)
            default:
                text.append(byte)
                continue
            }
            bytes.removeFirst()
        }
        return String(decoding: text, as: UTF8.self)
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// A metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`) or, without the colon, a label name, taken from the front of `rest`.
    private static func name(from rest: inout ArraySlice<UInt8>, allowingColon: Bool) -> String? {
        let isNameByte = { (byte: UInt8) in
            // An ASCII letter in either case: setting 0x20 lowers an upper-case one.
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: "_")
                || (allowingColon && byte == UInt8(ascii: ":"))
        }
        guard let first = rest.first, isNameByte(first) else { return nil }
        let name = rest.prefix { isNameByte($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
        rest.removeFirst(name.count)
        return String(decoding: name, as: UTF8.self)
    }

    /// The labels after `{` up to its `}`, which may follow a trailing comma; nil when malformed.
    private static func labels(from rest: inout ArraySlice<UInt8>) -> [Label]? {
        var labels: [Label] = []
        while true {
            rest = rest.drop(while: isBlank)
            if rest.first == UInt8(ascii: "}") {
                rest.removeFirst()
                return labels
            }
            guard let name = name(from: &rest, allowingColon: false) else { return nil }
            rest = rest.drop(while: isBlank)
            guard rest.popFirst() == UInt8(ascii: "=") else { return nil }
            rest = rest.drop(while: isBlank)
            guard rest.popFirst() == UInt8(ascii: "\""), let value = quotedValue(from: &rest) else { return nil }
            labels.append(Label(name, value))
            rest = rest.drop(while: isBlank)
            switch rest.popFirst() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return labels
            default: return nil
            }
        }
    }

    /// A label value up to its closing quote (taken too), unescaped; nil when the quote never comes.
    private static func quotedValue(from rest: inout ArraySlice<UInt8>) -> String? {
        var index = rest.startIndex
        while index < rest.endIndex {
            switch rest[index] {
            case UInt8(ascii: "\""):
                let value = unescaped(rest[..<index], quotes: true)
                rest = rest[(index + 1)...]
                return value
            case UInt8(ascii: "\\"): index += 2
            default: index += 1
            }
        }
        return nil
    }
}

/// A Prometheus text exposition (format 0.0.4), parsed strictly: every line must be a comment or
/// a well-formed sample of a family declared by a `# TYPE` line before it.
struct Exposition {
    /// `# TYPE` of each family.
    private(set) var types: [String: String] = [:]
    /// Sample values by name and labels, labels sorted by name.
    private(set) var samples: [SampleKey: Double] = [:]

    struct SampleKey: Hashable, CustomStringConvertible {
        var name: String
        var labels: [String: String]

        var description: String {
            labels.isEmpty ? name : name + "{" + labels.sorted { $0.key < $1.key }.map { "\($0.key)=\"\($0.value)\"" }.joined(separator: ",") + "}"
        }
    }

    init(parsing text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw TestFailure("the exposition does not end with a newline") }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try parse(Substring(line))
        }
    }

    private mutating func parse(_ line: Substring) throws {
        if line.hasPrefix("#") {
            let words = line.split(separator: " ")
            if words.count >= 2, words[1] == "TYPE" {
                guard words.count == 4, Self.isName(words[2]), ["counter", "gauge", "histogram", "summary", "untyped"].contains(words[3]) else {
                    throw TestFailure("bad TYPE line: \(line)")
                }
                guard types.updateValue(String(words[3]), forKey: String(words[2])) == nil else { throw TestFailure("second TYPE for \(words[2])") }
            }
            return
        }
        let nameEnd = line.firstIndex { $0 == "{" || $0 == " " } ?? line.endIndex
        let name = line[..<nameEnd]
        guard Self.isName(name) else { throw TestFailure("bad metric name in: \(line)") }
        var rest = line[nameEnd...]
        var labels: [String: String] = [:]
        if rest.hasPrefix("{") {
            guard let close = rest.lastIndex(of: "}") else { throw TestFailure("unclosed labels in: \(line)") }
            labels = try Self.labels(rest[rest.index(after: rest.startIndex)..<close], line: line)
            rest = rest[rest.index(after: close)...]
        }
        guard rest.hasPrefix(" "), let value = Self.value(rest.dropFirst()) else { throw TestFailure("bad value in: \(line)") }
        guard let family = family(of: String(name)) else { throw TestFailure("sample before its TYPE line: \(line)") }
        if types[family] == "counter", value < 0 { throw TestFailure("negative counter: \(line)") }
        let key = SampleKey(name: String(name), labels: labels)
        guard samples.updateValue(value, forKey: key) == nil else { throw TestFailure("duplicate sample: \(line)") }
    }

    /// The family a sample belongs to: itself, or a histogram's `_bucket`, `_sum` or `_count`.
    private func family(of name: String) -> String? {
        if types[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if types[base] == "histogram" { return base }
        }
        return nil
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*`, the rule for metric and label names.
    private static func isName(_ name: Substring) -> Bool {
        let scalars = name.unicodeScalars
        guard let first = scalars.first, !("0"..."9").contains(first) else { return false }
        return scalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == ":" }
    }

    private static func labels(_ text: Substring, line: Substring) throws -> [String: String] {
        var labels: [String: String] = [:]
        var rest = text
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), isName(rest[..<equals]) else { throw TestFailure("bad label name in: \(line)") }
            let name = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            guard rest.hasPrefix("\"") else { throw TestFailure("unquoted label value in: \(line)") }
            rest = rest.dropFirst()
            var value = ""
            var escaped = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if escaped {
                    value.append(character == "n" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    break
                } else {
                    value.append(character)
                }
            }
            guard labels.updateValue(value, forKey: name) == nil else { throw TestFailure("duplicate label \(name) in: \(line)") }
            if rest.hasPrefix(",") { rest = rest.dropFirst() } else if !rest.isEmpty { throw TestFailure("bad label separator in: \(line)") }
        }
        return labels
    }

    private static func value(_ text: Substring) -> Double? {
        switch text {
        case "+Inf": .infinity
        case "-Inf": -.infinity
        case "NaN": .nan
        default: Double(text)
        }
    }

    /// The value of the sample `name` with exactly `labels`, or nil when absent.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples[SampleKey(name: name, labels: labels)]
    }

    /// The sum of every sample of `name` whose labels include `matching`.
    func sum(_ name: String, matching: [String: String] = [:]) -> Double {
        samples.filter { key, _ in key.name == name && matching.allSatisfy { key.labels[$0.key] == $0.value } }.values.reduce(0, +)
    }

    /// Every sample of `name`, for messages.
    func describe(_ name: String) -> String {
        samples.filter { $0.key.name.hasPrefix(name) }.map { "\($0.key) \($0.value)" }.sorted().joined(separator: "\n")
    }
}

/// A scrape of the Prometheus text exposition format, version 0.0.4 (what the daemon's `/metrics`
/// answers), read into its metric families in the order they first appear.
///
/// `# TYPE` gives a family its kind and `# HELP` its text; other comments and blank lines are
/// skipped, and so is every line that is malformed: the reader never fails. A sample goes to the
/// family of its name; `_bucket`, `_sum` and `_count` samples to the histogram (or summary) whose
/// name they extend; a sample of no declared family makes an untyped family of its own.
package struct PrometheusExposition: Sendable, Equatable {
    package enum Kind: String, Sendable, Equatable {
        case counter
        case gauge
        case histogram
        case summary
        case untyped
    }

    package struct Family: Sendable, Equatable {
        package var name: String
        package var help: String
        package var kind: Kind
        package var samples: [PrometheusSample]

        package init(name: String, help: String = "", kind: Kind, samples: [PrometheusSample] = []) {
            self.name = name
            self.help = help
            self.kind = kind
            self.samples = samples
        }
    }

    package private(set) var families: [Family] = []
    /// Each family's index in `families`, by name.
    private var indexes: [String: Int] = [:]

    package init(parsing text: String) {
        for var line in Array(text.utf8).split(separator: UInt8(ascii: "\n")) {
            if line.last == UInt8(ascii: "\r") { line.removeLast() }
            if line.drop(while: PrometheusSample.isBlank).first == UInt8(ascii: "#") {
                readComment(line)
            } else if let sample = PrometheusSample(line: line) {
                families[family(of: sample.name)].samples.append(sample)
            }
        }
    }

    /// `# HELP name text` or `# TYPE name kind`; any other comment says nothing.
    private mutating func readComment(_ line: ArraySlice<UInt8>) {
        let fields = line.split(maxSplits: 3, whereSeparator: PrometheusSample.isBlank)
        guard fields.count >= 3, fields[0].elementsEqual("#".utf8) else { return }
        let name = String(decoding: fields[2], as: UTF8.self)
        let rest = fields.count == 4 ? fields[3] : []
        if fields[1].elementsEqual("HELP".utf8) {
            families[family(named: name)].help = PrometheusSample.unescaped(rest, quotes: false)
        } else if fields[1].elementsEqual("TYPE".utf8) {
            let words = rest.split(whereSeparator: PrometheusSample.isBlank)
            guard words.count == 1, let kind = Kind(rawValue: String(decoding: words[0], as: UTF8.self)) else { return }
            families[family(named: name)].kind = kind
        }
    }

    /// The index of the family a sample named `name` belongs to, made untyped when there is none.
    private mutating func family(of name: String) -> Int {
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            if let index = indexes[String(name.dropLast(suffix.count))] {
                switch families[index].kind {
                case .histogram: return index
                case .summary where suffix != "_bucket": return index
                case .counter, .gauge, .summary, .untyped: break
                }
            }
        }
        return family(named: name)
    }

    /// The index of the family named `name`, made untyped when there is none.
    private mutating func family(named name: String) -> Int {
        if let index = indexes[name] { return index }
        families.append(Family(name: name, kind: .untyped))
        indexes[name] = families.count - 1
        return families.count - 1
    }
}

import BeaconDomain
import BeaconTesting
import BeaconRuntime

/// The line protocol's framing rules restated as plainly as possible, without streaming, to
/// check ``LineFramer`` against: split at `\n`, drop one `\r` before it, drop empty lines,
/// refuse a line over the limit, then one that is not UTF-8.
enum LineFramingModel {
    static func lines(of input: [UInt8], maxLineBytes: Int) -> [RawLine] {
        input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).compactMap { segment in
            let content = segment.last == UInt8(ascii: "\r") ? segment.dropLast() : segment
            if content.isEmpty { return nil }
            if content.count > maxLineBytes { return .unreadable(.tooLong(limit: maxLineBytes)) }
            guard let text = String(validating: content, as: UTF8.self) else { return .unreadable(.invalidUTF8) }
            return .text(text)
        }
    }
}

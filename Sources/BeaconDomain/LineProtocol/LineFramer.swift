#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a stream of byte chunks into ``RawLine``s.
///
/// Lines end at `\n`; a `\r` right before it is dropped. Empty lines are dropped.
/// A line longer than ``maxLineBytes`` (terminator excluded) is reported once as
/// `.unreadable(.tooLong)` and the rest of it is skipped up to the next newline without
/// being buffered, so memory stays bounded by the limit whatever the input.
package struct LineFramer: Sendable {
    /// The default largest line, in bytes, without its terminator.
    package static let defaultMaxLineBytes = 64 * 1024

    /// The largest line accepted, in bytes, without its terminator.
    package let maxLineBytes: Int

    /// Bytes of the current, unfinished line (at most `maxLineBytes + 1`: room for a `\r`).
    private var pending: [UInt8] = []
    /// True while skipping the tail of a line already reported as too long.
    private var skipping = false

    package init(maxLineBytes: Int = LineFramer.defaultMaxLineBytes) {
        precondition(maxLineBytes > 0, "maxLineBytes must be positive")
        self.maxLineBytes = maxLineBytes
    }

    /// True when bytes of an unfinished line are held back, waiting for a newline.
    package var hasPendingBytes: Bool { !pending.isEmpty }

    /// Feeds the next chunk of input and returns the lines it completes, in order.
    package mutating func append(_ bytes: some Collection<UInt8>) -> [RawLine] {
        var lines: [RawLine] = []
        let handled: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            self.consume(UnsafeRawBufferPointer(buffer), into: &lines)
        }
        if handled == nil {
            Array(bytes).withUnsafeBytes { self.consume($0, into: &lines) }
        }
        return lines
    }

    /// Ends the input: returns the last line if it had no newline, and resets the framer.
    package mutating func finish() -> [RawLine] {
        defer {
            pending.removeAll(keepingCapacity: false)
            skipping = false
        }
        if skipping { return [] }
        return pending.withUnsafeBytes { bytes in
            completeLine(bytes[...]).map { [$0] } ?? []
        }
    }

    private mutating func consume(_ chunk: UnsafeRawBufferPointer, into lines: inout [RawLine]) {
        var start = 0
        while start < chunk.count {
            let rest = UnsafeRawBufferPointer(rebasing: chunk[start...])
            // memchr: a 100 MB line is scanned at memory speed even in debug builds.
            guard let hit = memchr(rest.baseAddress!, Int32(UInt8(ascii: "\n")), rest.count) else {
                takePartial(rest, into: &lines)
                return
            }
            let newline = start + (UnsafeRawPointer(hit) - rest.baseAddress!)
            let segment = chunk[start..<newline]
            start = newline + 1

            if skipping {
                skipping = false
                continue
            }
            if pending.isEmpty {
                if let line = completeLine(segment) { lines.append(line) }
            } else if pending.count + segment.count > maxLineBytes + 1 {
                pending.removeAll(keepingCapacity: true)
                lines.append(.unreadable(.tooLong(limit: maxLineBytes)))
            } else {
                pending.append(contentsOf: segment)
                let line = pending.withUnsafeBytes { completeLine($0[...]) }
                pending.removeAll(keepingCapacity: true)
                if let line { lines.append(line) }
            }
        }
    }

    /// Keeps the bytes of a line whose newline has not arrived yet, or starts skipping it.
    private mutating func takePartial(_ bytes: UnsafeRawBufferPointer, into lines: inout [RawLine]) {
        if skipping { return }
        let total = pending.count + bytes.count
        // One byte over the limit may still be the `\r` of a CRLF; anything more cannot fit.
        let fits = total <= maxLineBytes || (total == maxLineBytes + 1 && bytes.last == UInt8(ascii: "\r"))
        if fits {
            pending.append(contentsOf: bytes)
        } else {
            pending.removeAll(keepingCapacity: false)
            skipping = true
            lines.append(.unreadable(.tooLong(limit: maxLineBytes)))
        }
    }

    /// Turns the bytes of one line, terminator `\n` excluded, into a `RawLine` (nil when empty).
    private func completeLine(_ bytes: Slice<UnsafeRawBufferPointer>) -> RawLine? {
        var content = bytes
        if content.last == UInt8(ascii: "\r") { content = content.dropLast() }
        if content.isEmpty { return nil }
        if content.count > maxLineBytes { return .unreadable(.tooLong(limit: maxLineBytes)) }
        guard let text = String(validating: content, as: UTF8.self) else {
            return .unreadable(.invalidUTF8)
        }
        return .text(text)
    }
}

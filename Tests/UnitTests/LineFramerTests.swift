import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct LineFramerTests {
    /// Feeds `input` in chunks of the given sizes (cycled), then finishes.
    private func frame(_ input: [UInt8], chunkSizes: [Int], limit: Int = 64 * 1024) -> [RawLine] {
        var framer = LineFramer(maxLineBytes: limit)
        var lines: [RawLine] = []
        var offset = 0
        var turn = 0
        while offset < input.count {
            let size = min(chunkSizes[turn % chunkSizes.count], input.count - offset)
            lines += framer.append(input[offset..<offset + size])
            offset += size
            turn += 1
        }
        return lines + framer.finish()
    }

    private func frame(_ text: String, limit: Int = 64 * 1024) -> [RawLine] {
        frame(Array(text.utf8), chunkSizes: [Int.max], limit: limit)
    }

    @Test func splitsOnNewlineAndStripsCarriageReturn() {
        #expect(frame("a\nbb\r\nccc\n") == [.text("a"), .text("bb"), .text("ccc")])
    }

    @Test func dropsEmptyLines() {
        #expect(frame("\n\r\n\na\n\n\r\nb\n\n") == [.text("a"), .text("b")])
    }

    @Test func keepsWhitespaceAndLoneCarriageReturnsInsideALine() {
        #expect(frame(" \n a\rb \n") == [.text(" "), .text(" a\rb ")])
    }

    @Test func deliversUnterminatedLastLineAtFinishOnly() {
        var framer = LineFramer()
        #expect(framer.append(Array("a\ntail".utf8)) == [.text("a")])
        #expect(framer.hasPendingBytes)
        #expect(framer.finish() == [.text("tail")])
        #expect(framer.finish() == [])
        #expect(framer.append(Array("x\n".utf8)) == [.text("x")])
    }

    @Test func stripsCarriageReturnOfUnterminatedLastLine() {
        #expect(frame("tail\r") == [.text("tail")])
        #expect(frame("\r") == [])
    }

    @Test func sameLinesWhateverTheChunkBoundaries() {
        let input = Array("ab\r\nc\n\nd\u{e9}f\r\n\u{1F600}\r\n\r\nlast".utf8) + [0xFF, 0x0A] + Array("z".utf8)
        let expected: [RawLine] = [
            .text("ab"), .text("c"), .text("d\u{e9}f"), .text("\u{1F600}"), .unreadable(.invalidUTF8), .text("z"),
        ]
        #expect(frame(input, chunkSizes: [input.count]) == expected)
        #expect(frame(input, chunkSizes: [1]) == expected)
        for first in 0...input.count {
            for second in first...input.count {
                var framer = LineFramer()
                let lines = framer.append(input[..<first]) + framer.append(input[first..<second])
                    + framer.append(input[second...]) + framer.finish()
                #expect(lines == expected, "split at \(first), \(second)")
            }
        }
    }

    @Test func multiByteCharacterSplitAcrossChunks() {
        let text = "\u{1F600}\u{e9}\u{4E2D}"  // 4, 2 and 3 bytes
        let bytes = Array((text + "\n").utf8)
        for size in 1...4 {
            #expect(frame(bytes, chunkSizes: [size]) == [.text(text)], "chunks of \(size)")
        }
    }

    @Test func invalidUTF8IsRejectedAndFramingGoesOn() {
        let input: [UInt8] = [0x61, 0xC3, 0x0A, 0xED, 0xA0, 0x80, 0x0A, 0x62, 0x0A]  // truncated é, surrogate
        #expect(frame(input, chunkSizes: [1]) == [.unreadable(.invalidUTF8), .unreadable(.invalidUTF8), .text("b")])
    }

    @Test func exactlyTheLimitIsAcceptedOneMoreIsNot() {
        let limit = 16
        let exact = String(repeating: "x", count: limit)
        let over = String(repeating: "y", count: limit + 1)
        let tooLong = RawLine.unreadable(.tooLong(limit: limit))
        let input = Array("\(exact)\n\(over)\n\(exact)\r\n\(over)\r\nok\n".utf8)
        let expected: [RawLine] = [.text(exact), tooLong, .text(exact), tooLong, .text("ok")]
        for size in [1, 2, 3, 5, limit, limit + 1, limit + 2, input.count] {
            #expect(frame(input, chunkSizes: [size], limit: limit) == expected, "chunks of \(size)")
        }
    }

    @Test func limitAppliesToUnterminatedLastLine() {
        let limit = 8
        #expect(frame(String(repeating: "x", count: limit), limit: limit) == [.text("xxxxxxxx")])
        #expect(frame(String(repeating: "x", count: limit) + "\r", limit: limit) == [.text("xxxxxxxx")])
        #expect(frame(String(repeating: "x", count: limit + 1), limit: limit) == [.unreadable(.tooLong(limit: limit))])
        #expect(
            frame(Array(String(repeating: "x", count: limit + 1).utf8), chunkSizes: [1], limit: limit)
                == [.unreadable(.tooLong(limit: limit))]
        )
    }

    @Test func carriageReturnNotFollowedByNewlineCountsTowardsTheLimit() {
        let limit = 4
        // "abcd\r" fits only as CRLF; "abcd\re" is six bytes.
        let input = Array("abcd\re\nok\n".utf8)
        for size in 1...input.count {
            #expect(
                frame(input, chunkSizes: [size], limit: limit) == [.unreadable(.tooLong(limit: limit)), .text("ok")],
                "chunks of \(size)"
            )
        }
    }

    @Test func hugeLineIsReportedOnceWithoutBufferingThenNextLineIsRead() {
        var framer = LineFramer()
        let megabyte = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        var lines = framer.append(megabyte)
        #expect(lines == [.unreadable(.tooLong(limit: 64 * 1024))])
        for _ in 1..<100 {
            // 100 MB in all: nothing is held back while the rest of the line is skipped.
            #expect(framer.append(megabyte) == [])
            #expect(!framer.hasPendingBytes)
        }
        lines = framer.append(Array("tail of huge line\ngood\n".utf8))
        #expect(lines == [.text("good")])
        #expect(framer.finish() == [])
    }

    @Test func overLongLineInsideOneChunkIsSkippedToo() {
        let input = Array((String(repeating: "z", count: 100 * 1024) + "\nnext\n").utf8)
        #expect(frame(input, chunkSizes: [input.count]) == [.unreadable(.tooLong(limit: 65536)), .text("next")])
        #expect(frame(input, chunkSizes: [4096]) == [.unreadable(.tooLong(limit: 65536)), .text("next")])
    }

    @Test func skippedLineUnterminatedAtEndGivesNothingMore() {
        var framer = LineFramer(maxLineBytes: 4)
        #expect(framer.append(Array("abcdefgh".utf8)) == [.unreadable(.tooLong(limit: 4))])
        #expect(framer.finish() == [])
    }

    @Test func acceptsNonContiguousCollections() {
        var framer = LineFramer()
        #expect(framer.append("a\nb\n".utf8) == [.text("a"), .text("b")])
    }
}

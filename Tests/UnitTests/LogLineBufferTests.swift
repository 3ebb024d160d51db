import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct LogLineBufferTests {
    static func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

    /// Appends each text as a line; whether each was kept.
    static func append(_ texts: [String], to buffer: inout LogLineBuffer) -> [Bool] {
        texts.map { buffer.append(line($0)) }
    }

    @Test func linesComeOutWholeInTheOrderTheyCame() {
        var buffer = LogLineBuffer(capacity: 100)
        #expect(Self.append(["a", "b", "c"], to: &buffer) == [true, true, true])
        #expect(buffer.takeAll() == ["a", "b", "c"].map { .line(Self.line($0)) })
        #expect(buffer.takeAll().isEmpty)
        #expect(buffer.isEmpty)
        #expect(buffer.droppedTotal == 0)
    }

    @Test func aLineThatDoesNotFitIsDroppedAndCounted() {
        var buffer = LogLineBuffer(capacity: 10)
        // 5 bytes each: the second fills the buffer.
        #expect(Self.append(["1234", "5678", "x", "y"], to: &buffer) == [true, true, false, false])
        #expect(buffer.droppedTotal == 2)
        #expect(buffer.takeAll() == [.line(Self.line("1234")), .line(Self.line("5678")), .dropped(2)])
        #expect(buffer.droppedTotal == 2)
    }

    @Test func theDropsAreReportedWhereTheyHappened() {
        var buffer = LogLineBuffer(capacity: 5)
        #expect(Self.append(["abc", "dropped"], to: &buffer) == [true, false])
        #expect(buffer.takeAll() == [.line(Self.line("abc")), .dropped(1)])
        #expect(Self.append(["too long", "too long", "ok", "k"], to: &buffer) == [false, false, true, true])
        #expect(buffer.takeAll() == [.dropped(2), .line(Self.line("ok")), .line(Self.line("k"))])
        #expect(buffer.droppedTotal == 3)
    }

    @Test func spaceComesBackOnceTaken() {
        var buffer = LogLineBuffer(capacity: 4)
        #expect(Self.append(["abc", "d"], to: &buffer) == [true, false])
        _ = buffer.takeAll()
        #expect(Self.append(["abc"], to: &buffer) == [true])
    }

    @Test func linesTakenButLostAreCountedWithoutANotice() {
        var buffer = LogLineBuffer(capacity: 100)
        _ = Self.append(["a"], to: &buffer)
        _ = buffer.takeAll()
        buffer.lost(1)
        #expect(buffer.droppedTotal == 1)
        #expect(buffer.isEmpty)
        #expect(buffer.takeAll().isEmpty)
    }
}

import BeaconHTTP
import BeaconTesting
import Foundation
import Testing

/// Request bodies compressed with zlib, read back by the system's own `gzip`.
@Suite(.timeLimit(.minutes(1))) struct GzipTests {
    /// What `gzip -dc` makes of `compressed`, run as a process of its own (on a thread of its own:
    /// it blocks until gzip ends).
    static func gunzip(_ compressed: [UInt8]) async throws -> (status: Int32, output: [UInt8]) {
        try await withTemporaryDirectory { directory in
            let path = directory + "/body.gz"
            try Data(compressed).write(to: URL(fileURLWithPath: path))
            return try await onThreadOfItsOwn {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["gzip", "-dc", path]
                let output = Pipe()
                process.standardOutput = output
                process.standardError = FileHandle.nullDevice
                try process.run()
                let bytes = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                return (process.terminationStatus, Array(bytes))
            }
        }
    }

    @Test func aBodyIsOneGzipStreamThatGzipReadsBack() async throws {
        let body = Array(#"{"resourceLogs":[{"resource":{},"scopeLogs":[]}]}"#.utf8)
        let compressed = Gzip.compress(body)
        // The gzip magic and deflate, as RFC 1952 opens every member.
        #expect(compressed.prefix(3) == [0x1F, 0x8B, 0x08])
        let (status, output) = try await Self.gunzip(compressed)
        #expect(status == 0)
        #expect(output == body)
    }

    @Test func anEmptyBodyIsAnEmptyStream() async throws {
        let compressed = Gzip.compress([])
        #expect(compressed.prefix(2) == [0x1F, 0x8B])
        let (status, output) = try await Self.gunzip(compressed)
        #expect(status == 0)
        #expect(output.isEmpty)
    }

    @Test func aLargeBodyShrinksAndComesBackWhole() async throws {
        let record = #"{"timeUnixNano":"1700000000123000000","severityNumber":9,"body":{"stringValue":"beacon sent"}},"#
        let body = Array(String(repeating: record, count: 5_000).utf8)
        let compressed = Gzip.compress(body)
        #expect(compressed.count < body.count / 10)
        let (status, output) = try await Self.gunzip(compressed)
        #expect(status == 0)
        #expect(output == body)
    }

    @Test func bytesThatDoNotCompressStillComeBackWhole() async throws {
        var random = SeededGenerator(seed: 11)
        let body = (0..<100_000).map { _ in UInt8.random(in: .min ... .max, using: &random) }
        let compressed = Gzip.compress(body)
        let (status, output) = try await Self.gunzip(compressed)
        #expect(status == 0)
        #expect(output == body)
    }
}

import BeaconDomain
import Benchmark
import BenchmarkSchedules

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The captured sample response, in `../shared/fixtures` beside the repository.
func capturedSample() -> [UInt8] {
    let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let file = repository.appendingPathComponent("../shared/fixtures/harmonic-sample-metadata.json").standardized
    guard let data = try? Data(contentsOf: file) else { fatalError("missing fixture \(file.path)") }
    return Array(data)
}

/// What a first refresh costs: decoding the body and merging it into an empty session.
func decodeAndMerge(_ body: [UInt8]) -> Int {
    guard let document = try? MetadataDocument.decode(body) else { fatalError("fixture does not decode") }
    var session = TrackingSession(retention: 7_200_000)
    return session.apply(document).count + session.pendingCount
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )
    let bodies: [(String, [UInt8])] = [
        ("captured sample", capturedSample()),
        ("20 KiB", SyntheticSchedule.encodedDocument(atLeast: 20 << 10)),
        ("1 MiB", SyntheticSchedule.encodedDocument(atLeast: 1 << 20)),
    ]
    for (name, body) in bodies {
        Benchmark("Decode and merge, \(name) (\(body.count) bytes)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(decodeAndMerge(body)) }
        }
        // Decoding's share of the above: the fast reader of the metadata's shape on these bodies.
        Benchmark("Decode only, \(name) (\(body.count) bytes)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try? MetadataDocument.decode(body)) }
        }
        // The daemon compares each refresh with the last body it accepted: two buffers, as over the wire.
        let last = body.map { $0 }
        Benchmark("Unchanged refresh, \(name) (\(body.count) bytes)") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(MetadataBody.repeats(body, last: last)) }
        }
    }
}

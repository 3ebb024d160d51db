import BeaconDomain
import Benchmark

/// What expanding a signaling URL's IAB macros costs as each beacon leaves: most URLs carry
/// none and cost one scan; a URL with three macros costs their values and a new string.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(2),
        maxIterations: 100_000
    )
    let settings = MacroSettings(deviceUserAgent: "beaconctl/1.2.3 (linux)", ifa: "6D92078A-8246-4BA4-AE5B-76104861E7DC", ifaType: "rida")
    let context = MacroContext(
        occurredAt: 1_675_135_534_076, adPlayhead: 7_500, contentPosition: 3_723_004, breakPosition: 2, adPosition: 3)
    let base = "http://127.0.0.1:4647/beacon?ad=a1&cn=firstQuartile"
    let urls = [
        ("without macros", base + "&x=%2F%5C%5D"),
        ("with 3 macros", base + "&ts=[TIMESTAMP]&cb=[CACHEBUSTING]&ap=[ADPLAYHEAD]"),
    ]
    for (name, url) in urls {
        Benchmark("Expand a signaling URL \(name)") { benchmark in
            var random = SystemRandomNumberGenerator()
            for _ in benchmark.scaledIterations {
                blackHole(MacroExpansion.expand(url, context: context, settings: settings, using: &random))
            }
        }
    }
}

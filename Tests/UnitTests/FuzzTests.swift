import BeaconFuzzing
import Foundation
import Testing

/// The fuzz targets' properties on mutated inputs, within a bounded budget: `FUZZ_ITERATIONS`
/// inputs per target (default 20000), at most `FUZZ_SECONDS` seconds each (default 10), from
/// `FUZZ_SEED` (default: a random seed, printed first so that even a trap can be replayed).
/// `make fuzz` runs the same targets for as long as asked, coverage-guided where libFuzzer is.
/// One target at a time, to leave CPU to the timing-sensitive tests running beside: first
/// `metadata`, cheap enough to get far while the rest of the suite runs, then `lines`.
@Suite(.serialized) struct FuzzTests {
    @Test(arguments: [FuzzTarget.metadata, .lines])
    func propertiesHoldOnMutatedInputs(target: FuzzTarget) async throws {
        let environment = ProcessInfo.processInfo.environment
        let iterations = try Self.setting("FUZZ_ITERATIONS", in: environment) ?? 20_000
        let seconds = try Self.setting("FUZZ_SECONDS", in: environment) ?? 10
        let seed = try Self.setting("FUZZ_SEED", in: environment) ?? UInt64.random(in: .min ... .max)
        let campaign = try FuzzCampaign(target: target, packageRoot: Fixture.packageRoot.path)
        print("fuzz \(target): seed \(seed) (FUZZ_SEED=\(seed) replays it), \(campaign.seeds.count) seed inputs")

        // On a thread of its own, at the lowest priority: seconds of work on the cooperative
        // pool would starve the timing-sensitive tests running beside it.
        let report = await withCheckedContinuation { continuation in
            Thread {
                // On Linux the nice value is per thread: 0 names this one.
                setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
                continuation.resume(returning: campaign.run(seed: seed, iterations: iterations, duration: .seconds(seconds)))
            }.start()
        }
        print(report)
        if let failure = report.failure { Issue.record("\(failure)") }
        // Every seed at least was checked, however busy the machine.
        #expect(report.executions >= campaign.seeds.count || report.failure != nil)
    }

    @Test func dictionaryFilesReadAsLibFuzzerReadsThem() throws {
        let dictionary = try FuzzDictionary(parsing: #"""
            # a comment
            number="253402300800000"
              "\x00\x0D\x0A"
            quote="\"\\"
            """#)
        #expect(dictionary.tokens == [Array("253402300800000".utf8), [0, 13, 10], Array(#""\"#.utf8)])
        #expect(throws: FuzzSetupError.self) { try FuzzDictionary(parsing: "unquoted") }
        #expect(throws: FuzzSetupError.self) { try FuzzDictionary(parsing: #""\q""#) }
        for target in FuzzTarget.allCases {
            #expect(try !FuzzCorpus.dictionary(for: target, packageRoot: Fixture.packageRoot.path).tokens.isEmpty)
        }
    }

    private static func setting<T: LosslessStringConvertible>(_ name: String, in environment: [String: String]) throws -> T? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let value = T(text) else { throw FuzzSetupError("\(name)=\(text) is not a number") }
        return value
    }
}

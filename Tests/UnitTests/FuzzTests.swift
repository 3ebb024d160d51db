import BeaconFuzzing
import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct FuzzTests {
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

extension FuzzTests {
    /// The fuzz targets' properties on a fixed number of mutated inputs, so that a slow machine does
    /// the same work as a fast one: `FUZZ_ITERATIONS` per target (default: each target's
    /// ``defaultIterations``), from `FUZZ_SEED` (default: a random seed, printed first so that
    /// even a trap can be replayed). `make fuzz` runs the same targets for as long as asked,
    /// coverage-guided where libFuzzer is. CPU-bound: `make test` runs it in its sweeps step.
    @Suite(.timeLimit(.minutes(5))) struct Sweeps {
        /// About 5 s of one core each on the machines `make test` is measured on.
        static let defaultIterations: [FuzzTarget: Int] = [.metadata: 6_000, .lines: 4_000]

        @Test(arguments: FuzzTarget.allCases)
        func propertiesHoldOnMutatedInputs(target: FuzzTarget) throws {
            let environment = ProcessInfo.processInfo.environment
            let iterations = try FuzzTests.setting("FUZZ_ITERATIONS", in: environment) ?? Self.defaultIterations[target]!
            let seed = try FuzzTests.setting("FUZZ_SEED", in: environment) ?? UInt64.random(in: .min ... .max)
            let campaign = try FuzzCampaign(target: target, packageRoot: Fixture.packageRoot.path)
            print("fuzz \(target): seed \(seed) (FUZZ_SEED=\(seed) replays it), \(campaign.seeds.count) seed inputs")
            let report = campaign.run(seed: seed, iterations: iterations)
            print(report)
            if let failure = report.failure { Issue.record("\(failure)") }
            #expect(report.executions == max(iterations, campaign.seeds.count) || report.failure != nil)
        }
    }
}

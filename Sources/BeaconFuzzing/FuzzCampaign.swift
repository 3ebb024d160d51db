import BeaconTesting
/// A seeded, mutation-based property run: the test suite runs one for a bounded budget, and
/// `make fuzz` runs one for as long as asked where libFuzzer is not available.
///
/// It checks every seed as it is, then mutated inputs: each iteration mutates an input of the
/// pool (the seeds, and the mutants the target accepted, which reach deeper than rejected ones)
/// with another as splice donor. Everything follows from the seed, so a failure replays from
/// the seed it reports, over the same seeds.
package struct FuzzCampaign: Sendable {
    package var target: FuzzTarget
    package var seeds: [FuzzSeed]
    package var mutator: InputMutator
    /// Accepted mutants kept in the pool, at most; later ones replace random earlier ones.
    package var maxPoolGrowth = 2_000
    /// Accepted mutants longer than this are not kept: huge inputs are slow to check and mutate.
    package var maxPooledLength = 16 * 1024

    package init(target: FuzzTarget, seeds: [FuzzSeed], dictionary: FuzzDictionary) {
        self.target = target
        self.seeds = seeds
        self.mutator = InputMutator(dictionary: dictionary)
    }

    /// The target's standard seeds and dictionary from the package at `packageRoot`.
    package init(target: FuzzTarget, packageRoot: String) throws(FuzzSetupError) {
        self.init(
            target: target, seeds: try FuzzCorpus.seeds(for: target, packageRoot: packageRoot),
            dictionary: try FuzzCorpus.dictionary(for: target, packageRoot: packageRoot))
    }

    /// Checks every seed, then mutants until `iterations` inputs were checked or `duration`, if
    /// given, passed; stops at the first property that fails. `willCheck` sees each input first,
    /// so that one that traps can still be found. Without a duration the run does the same work
    /// however fast the machine is.
    package func run(
        seed: UInt64, iterations: Int, duration: Duration? = nil, willCheck: ([UInt8]) -> Void = { _ in }
    ) -> FuzzReport {
        let deadline = duration.map { ContinuousClock.now + $0 }
        var generator = SeededGenerator(seed: seed)
        var pool = seeds.map(\.bytes)
        var report = FuzzReport(target: target, seed: seed)
        while report.executions < seeds.count || (report.executions < iterations && deadline.map { ContinuousClock.now < $0 } ?? true) {
            let iteration = report.executions
            let isSeed = iteration < seeds.count
            let input: [UInt8]
            if isSeed {
                input = seeds[iteration].bytes
            } else if pool.isEmpty {
                input = []
            } else {
                let base = pool.randomElement(using: &generator)!
                input = mutator.mutate(base, donor: pool.randomElement(using: &generator)!, using: &generator)
            }
            willCheck(input)
            report.executions += 1
            do {
                guard try target.check(input) else { continue }
                report.accepted += 1
                if !isSeed && input.count <= maxPooledLength {
                    if pool.count < seeds.count + maxPoolGrowth {
                        pool.append(input)
                    } else {
                        pool[Int.random(in: seeds.count..<pool.count, using: &generator)] = input
                    }
                }
            } catch {
                report.failure = FuzzFailure(
                    target: target, seed: seed, iteration: iteration, seedName: isSeed ? seeds[iteration].name : nil,
                    input: input, violation: error)
                break
            }
        }
        return report
    }
}

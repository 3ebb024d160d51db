import BeaconFuzzing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The long fuzz runs of `make fuzz`, from the package root. Built with `-sanitize=fuzzer
// -DBEACON_LIBFUZZER`, libFuzzer's own main drives the target named by $FUZZ_TARGET; built
// plainly, the same properties run on mutated inputs for a given time.

#if BEACON_LIBFUZZER
private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        fatalError("FUZZ_TARGET must name a target: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return target
}()

/// Puts the standard seeds into the corpus directory libFuzzer was given (its first argument
/// that is not a flag), where libFuzzer reads them and adds what it finds.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutableRawPointer) -> CInt {
    guard let corpus = CommandLine.arguments.dropFirst().first(where: { !$0.hasPrefix("-") }) else { return 0 }
    do {
        for seed in try FuzzCorpus.seeds(for: target, packageRoot: FileManager.default.currentDirectoryPath) {
            let file = URL(filePath: corpus).appending(path: "seed-" + seed.name.replacing("/", with: "_"))
            try Data(seed.bytes).write(to: file)
        }
    } catch {
        fatalError("cannot seed \(corpus): \(error)")
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try target.check(input)
    } catch {
        // libFuzzer saves the input of a crash.
        fatalError("\(error)")
    }
    return 0
}
#else
import ArgumentParser

@main
struct BeaconFuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "BeaconFuzz",
        abstract: "Check the properties of a fuzz target on mutated inputs for a given time (make fuzz without libFuzzer).")

    @Argument(help: "The target: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: " or ")).")
    var target: String

    @Option(help: "Seconds to run.")
    var seconds = 600

    @Option(help: "The seed of the run (default: a random one, printed).")
    var seed: UInt64?

    @Option(help: "Where a failing input is written.")
    var artifacts = "Fuzz/artifacts"

    func run() throws {
        guard let target = FuzzTarget(rawValue: target) else {
            throw ValidationError("unknown target '\(target)': \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let campaign = try FuzzCampaign(target: target, packageRoot: FileManager.default.currentDirectoryPath)
        let seed = seed ?? UInt64.random(in: .min ... .max)
        print("fuzz \(target): seed \(seed), \(campaign.seeds.count) seed inputs, \(seconds) s")
        try FileManager.default.createDirectory(atPath: artifacts, withIntermediateDirectories: true)
        // Written before each check: an input that traps is left there.
        let current = URL(filePath: "\(artifacts)/\(target)-current")
        let report = campaign.run(seed: seed, iterations: .max, duration: .seconds(seconds)) { input in
            try? Data(input).write(to: current)
        }
        print(report)
        if let failure = report.failure {
            let saved = "\(artifacts)/\(target)-failure-\(seed)"
            try Data(failure.input).write(to: URL(filePath: saved))
            print("failing input saved as \(saved)")
            throw ExitCode.failure
        }
    }
}
#endif

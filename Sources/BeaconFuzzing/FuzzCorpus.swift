#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a target's seeds and dictionary live in the package, for the test suite, `make fuzz`
/// and libFuzzer alike: the hand-written edge cases of `Fuzz/seeds/<target>/`, the samples the
/// project ships, the metadata documents anywhere below `../shared/fixtures` when it is there, and
/// `Fuzz/<target>.dict`.
package enum FuzzCorpus {
    /// Every seed of `target`, in a fixed order (a seed replays only over the same corpus).
    package static func seeds(for target: FuzzTarget, packageRoot: String) throws(FuzzSetupError) -> [FuzzSeed] {
        var seeds = try files(in: "\(packageRoot)/Fuzz/seeds/\(target)", required: true)
        switch target {
        case .lines:
            seeds += try ["samples/ticks.txt", "samples/recorded-ticks.log"].map { path throws(FuzzSetupError) in
                try seed(at: "\(packageRoot)/\(path)", named: path)
            }
        case .metadata:
            seeds.append(try seed(at: "\(packageRoot)/samples/metadata.json", named: "samples/metadata.json"))
            seeds += try jsonFiles(under: "\(packageRoot)/../shared/fixtures")
        }
        return seeds
    }

    /// The path of `target`'s dictionary, as libFuzzer's `-dict=` takes it.
    package static func dictionaryPath(for target: FuzzTarget, packageRoot: String) -> String {
        "\(packageRoot)/Fuzz/\(target).dict"
    }

    package static func dictionary(for target: FuzzTarget, packageRoot: String) throws(FuzzSetupError) -> FuzzDictionary {
        let path = dictionaryPath(for: target, packageRoot: packageRoot)
        return try FuzzDictionary(parsing: String(decoding: try seed(at: path, named: path).bytes, as: UTF8.self))
    }

    /// The files of `directory`, sorted by name; a missing directory is an error only when `required`.
    private static func files(in directory: String, required: Bool) throws(FuzzSetupError) -> [FuzzSeed] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            if required { throw FuzzSetupError("cannot list \(directory): \(error)") }
            return []
        }
        return try names.filter { !$0.hasPrefix(".") }.sorted().map { name throws(FuzzSetupError) in
            try seed(at: "\(directory)/\(name)", named: name)
        }
    }

    /// The JSON files anywhere below `directory` (captures and documents published by others sit in
    /// subfolders), sorted by their path in it; none when it is missing.
    private static func jsonFiles(under directory: String) throws(FuzzSetupError) -> [FuzzSeed] {
        guard let paths = try? FileManager.default.subpathsOfDirectory(atPath: directory) else { return [] }
        return try paths.filter { $0.hasSuffix(".json") && !$0.split(separator: "/").contains { $0.hasPrefix(".") } }.sorted()
            .map { path throws(FuzzSetupError) in try seed(at: "\(directory)/\(path)", named: path) }
    }

    private static func seed(at path: String, named name: String) throws(FuzzSetupError) -> FuzzSeed {
        do {
            return FuzzSeed(name: name, bytes: Array(try Data(contentsOf: URL(filePath: path))))
        } catch {
            throw FuzzSetupError("cannot read \(path): \(error)")
        }
    }
}

import Foundation

/// Where the `beaconctl` executable built beside the test bundle is.
enum BeaconctlBinary {
    /// `BEACONCTL_BINARY` if set, else `beaconctl` in the directory of the running test bundle.
    static let path: String = {
        let environment = ProcessInfo.processInfo.environment
        if let override = environment["BEACONCTL_BINARY"], !override.isEmpty { return override }
        var candidates: [URL] = []
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(runner.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        candidates.append(Bundle.main.bundleURL)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        // Walk up a few levels from the runner, for bundles nested in their own directory.
        var directory = runner.deletingLastPathComponent()
        for _ in 0..<4 {
            directory = directory.deletingLastPathComponent()
            candidates.append(directory)
        }
        for directory in candidates {
            let binary = directory.appendingPathComponent("beaconctl").path
            if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        }
        return candidates[0].appendingPathComponent("beaconctl").path
    }()
}

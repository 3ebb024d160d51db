// swift-tools-version:6.1
// The benchmarks live in a package of their own, so the main build and CI never build the
// benchmark harness. Run them with `make bench` from the repository root, or here with
// `swift package benchmark --no-progress`.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "beaconctl-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "beaconctl", path: ".."),
        // The default trait also pulls a runtime interposer that is not available here.
        .package(url: "https://github.com/ordo-one/benchmark", exact: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "BenchmarkSchedules",
            dependencies: [
                .product(name: "BeaconBenchmarkSupport", package: "beaconctl"),
            ],
            swiftSettings: strictSettings
        ),
    ] + ["Journal", "Macros", "Matching", "Metadata"].map { name in
        .executableTarget(
            name: name,
            dependencies: [
                "BenchmarkSchedules",
                .product(name: "BeaconBenchmarkSupport", package: "beaconctl"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/\(name)",
            swiftSettings: strictSettings,
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        )
    }
)

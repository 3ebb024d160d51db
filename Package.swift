// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    // Small on the box: our own code is optimised for size in release builds.
    .unsafeFlags(["-Osize"], .when(configuration: .release)),
]

let package = Package(
    name: "beaconctl",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "beaconctl", targets: ["beaconctl"]),
        // For the benchmarks' own package (Benchmarks/) only: not an API, no promise between releases.
        .library(name: "BeaconBenchmarkSupport", targets: ["BeaconDomain", "BeaconStorage", "BeaconRuntime", "BeaconSimulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(name: "CMalloc"),
        // The domain: the model, the metadata reader, matching, and every decision (delivery,
        // retries, session phases). No NIO, libcurl, SQLite or logging: it only decides.
        .target(
            name: "BeaconDomain",
            swiftSettings: strictSettings
        ),
        // The edges, each behind a small protocol of the domain.
        .target(
            name: "BeaconHTTP",
            dependencies: ["BeaconDomain", "CCurl", "CZlib"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BeaconStorage",
            dependencies: ["BeaconDomain", "CSQLite"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BeaconTerminal",
            dependencies: ["BeaconDomain"],
            swiftSettings: strictSettings
        ),
        // The running daemon: composes the domain and the edges; sockets, HTTP server, metrics,
        // systemd, configuration, logging, clocks.
        .target(
            name: "BeaconRuntime",
            dependencies: [
                "BeaconDomain",
                "BeaconHTTP",
                "BeaconStorage",
                "CMalloc",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "TOMLKit", package: "TOMLKit"),
            ],
            // TOMLKit imports the whole of Foundation: without this, its String extensions would win
            // overload resolution in every file and link ICU into the binary (about 45 MB).
            swiftSettings: strictSettings + [.enableUpcomingFeature("MemberImportVisibility")]
        ),
        // What tests and fuzzing drive the domain with: virtual time, seeded randomness, a
        // scripted HTTP client, an in-memory journal. Not shipped.
        .target(
            name: "BeaconTesting",
            dependencies: ["BeaconDomain", "BeaconRuntime"],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BeaconSimulator",
            dependencies: ["BeaconDomain", "BeaconRuntime"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "beaconctl",
            dependencies: [
                "BeaconDomain",
                "BeaconHTTP",
                "BeaconStorage",
                "BeaconRuntime",
                "BeaconTerminal",
                "BeaconSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings,
            // The Swift driver exports every symbol of an executable on Linux. Nothing loads
            // beaconctl's symbols, and the 17,000 names cost 1.6 MB of the binary and 2 MB of
            // resident memory (the loader's symbol lookups and relocations read them).
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(platforms: [.linux]))],
            plugins: ["BuildCommitPlugin"]
        ),
        .plugin(name: "BuildCommitPlugin", capability: .buildTool()),
        // Fuzzing (not shipped): the targets and their properties, shared by the test suite and
        // the long runs of `make fuzz`, which build BeaconFuzz with or without libFuzzer.
        .target(
            name: "BeaconFuzzing",
            dependencies: ["BeaconDomain", "BeaconRuntime", "BeaconTesting", "BeaconSimulator"],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "BeaconFuzz",
            dependencies: [
                "BeaconFuzzing",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "UnitTests",
            dependencies: [
                "BeaconDomain", "BeaconHTTP", "BeaconStorage", "BeaconRuntime", "BeaconTerminal", "BeaconTesting",
                "BeaconSimulator", "BeaconFuzzing",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["BeaconDomain", "BeaconHTTP", "BeaconStorage", "BeaconRuntime", "BeaconTerminal", "BeaconSimulator"],
            swiftSettings: strictSettings
        ),
    ]
)

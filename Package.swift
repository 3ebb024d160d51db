// swift-tools-version:6.0
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "beaconctl",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "beaconctl", targets: ["beaconctl"]),
        .library(name: "BeaconCore", targets: ["BeaconCore"]),
        .library(name: "BeaconSimulator", targets: ["BeaconSimulator"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "BeaconCore",
            dependencies: [
                "CCurl",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .target(
            name: "BeaconSimulator",
            dependencies: [
                "BeaconCore",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "beaconctl",
            dependencies: [
                "BeaconCore",
                "BeaconSimulator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "BeaconCoreTests",
            dependencies: ["BeaconCore", "BeaconSimulator"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["BeaconCore", "BeaconSimulator"],
            swiftSettings: strictSettings
        ),
    ]
)

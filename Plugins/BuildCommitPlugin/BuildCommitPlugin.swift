import Foundation
import PackagePlugin

/// Bakes the git commit into the target as `BuildCommit.hash`, so a plain `swift build` stamps the
/// version too. A prebuild command, because the commit changes without any file SwiftPM tracks.
@main
struct BuildCommitPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let generated = context.pluginWorkDirectoryURL.appending(path: "generated")
        let script = context.package.directoryURL.appending(path: "scripts/build-commit.sh")
        return [
            .prebuildCommand(
                displayName: "Reading the git commit for \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [script.path, context.package.directoryURL.path, generated.appending(path: "BuildCommit.swift").path],
                outputFilesDirectory: generated)
        ]
    }
}

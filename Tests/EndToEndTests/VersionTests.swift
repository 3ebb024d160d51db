import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The version scheme, the commit baked in at build time, and the API level check.
@Suite(.timeLimit(.minutes(5))) struct VersionTests {
    /// The package's own commit, as the build read it.
    static func packageCommit() throws -> String {
        let packageDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let git = Process()
        git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        git.arguments = ["-C", packageDirectory.path, "rev-parse", "HEAD"]
        let output = Pipe()
        git.standardOutput = output
        git.standardError = FileHandle.nullDevice
        try git.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        git.waitUntilExit()
        return git.terminationStatus == 0 ? String(text.prefix(7)) : "0000000"
    }

    @Test func versionNamesPlatformReleaseCommitAndAPILevel() async throws {
        let result = try await runBeaconctl(["--version"])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .newlines)
        #expect(line.wholeMatch(of: /linux-\d+\.\d+\.\d+\.\d+--[0-9a-f]{7} \(api \d+\)/) != nil, "\(line)")
        #expect(line.hasSuffix("--\(try Self.packageCommit()) (api \(StatusReport.currentAPILevel))"), "\(line)")

        try await withDaemon([]) { daemon in
            let report = try await daemon.waitUntilListening()
            #expect("\(report.version) (api \(report.apiLevel))" == line)
            let send = try await runBeaconctl(["send", "--socket", daemon.socketPath, "pause"])
            #expect(send.status == 0)
            #expect(send.stderr.isEmpty, "same API level, no warning: \(send.stderr)")
        }
    }

    @Test func aTreeWithoutGitBuildsAsTheUnknownCommitAndTheFileIsRewrittenOnlyOnChange() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/build-commit.sh").path
        let output = directory.file("generated/BuildCommit.swift")
        let first = try await runProgram("/bin/sh", [script, directory.path, output])
        #expect(first.status == 0, "\(first.stderr)")
        let text = try String(contentsOfFile: output, encoding: .utf8)
        #expect(text.contains("static let hash = \"0000000\""), "\(text)")
        let written = try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date
        try await Task.sleep(for: .milliseconds(20))
        let second = try await runProgram("/bin/sh", [script, directory.path, output])
        #expect(second.status == 0)
        #expect(try FileManager.default.attributesOfItem(atPath: output)[.modificationDate] as? Date == written)
    }

    @Test func warnsOnceAboutADaemonOfAnotherAPILevel() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.file("c.sock")
        let status = StatusReport(
            apiLevel: StatusReport.currentAPILevel + 1, version: "linux-9.0.0.0--abcdef0", state: "idle", session: nil,
            playhead: nil, dataRange: nil, adBreaks: [], counters: StatusReport.Counters())
        let server = ControlSocketServer(path: path) { line in
            if case .text("status") = line { return status.jsonLine() }
            return nil
        }
        try await server.bind()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await server.run() }
            for arguments in [["status"], ["status", "--json"], ["send", "pause"], ["send", "status"]] {
                let result = try await runBeaconctl(arguments + ["--socket", path])
                #expect(result.status == 0, "\(arguments): \(result.stderr)")
                let warnings = result.stderr.split(separator: "\n").filter { $0.contains("API level") }
                #expect(warnings.count == 1, "\(arguments): \(result.stderr)")
                #expect(warnings.first?.contains("API level \(StatusReport.currentAPILevel + 1), this beaconctl \(StatusReport.currentAPILevel)") == true)
            }
            group.cancelAll()
        }
    }
}

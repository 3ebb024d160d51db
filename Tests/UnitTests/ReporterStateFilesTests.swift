import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconRuntime
@testable import BeaconStorage
@testable import BeaconTesting

/// The installation id and privacy status kept in the state directory across restarts.
@Suite(.timeLimit(.minutes(2))) struct ReporterStateFilesTests {
    static func open(_ directory: String, seed: UInt64 = 1) -> (ReporterStateFiles, ReporterStateError?) {
        var random = SeededGenerator(seed: seed)
        var problem: ReporterStateError?
        let files = ReporterStateFiles(directory: directory, using: &random, problem: &problem)
        return (files, problem)
    }

    @Test func theInstallationIDIsMadeOnceAndKept() async throws {
        try await withTemporaryDirectory { directory in
            let (first, problem) = Self.open(directory, seed: 1)
            #expect(problem == nil)
            #expect(InstallationID.isValid(first.installationID()))
            let (second, _) = Self.open(directory, seed: 2)
            #expect(second.installationID() == first.installationID(), "read back, not made again")
            let text = try String(contentsOfFile: directory + "/installation-id", encoding: .utf8)
            #expect(text == first.installationID() + "\n")
        }
    }

    @Test func aDamagedInstallationIDIsReplaced() async throws {
        try await withTemporaryDirectory { directory in
            try "not-an-id\n".write(toFile: directory + "/installation-id", atomically: true, encoding: .utf8)
            let (files, _) = Self.open(directory)
            #expect(InstallationID.isValid(files.installationID()))
            #expect(Self.open(directory, seed: 9).0.installationID() == files.installationID())
        }
    }

    @Test func thePrivacyStatusIsNoneUntilSetThenKeptAcrossRestarts() async throws {
        try await withTemporaryDirectory { directory in
            let (files, _) = Self.open(directory)
            #expect(files.privacyStatus() == nil, "none said yet")
            try files.setPrivacyStatus(.optOut)
            #expect(files.privacyStatus() == .optOut)
            #expect(Self.open(directory).0.privacyStatus() == .optOut)
            try files.setPrivacyStatus(.unknown)
            #expect(Self.open(directory).0.privacyStatus() == .unknown)
            #expect(!FileManager.default.fileExists(atPath: directory + "/privacy-status.new"), "written beside, then renamed")
        }
    }

    @Test func aDirectoryThatCannotBeWrittenKeepsTheValuesInMemoryAndSaysWhy() async throws {
        let missing = "/nonexistent-\(UInt64.random(in: 0...UInt64.max))"
        let (files, problem) = Self.open(missing)
        #expect(problem?.reason.hasPrefix("cannot create \(missing)/installation-id.new") == true)
        #expect(InstallationID.isValid(files.installationID()))
        #expect(throws: ReporterStateError.self) { try files.setPrivacyStatus(.optOut) }
        #expect(files.privacyStatus() == .optOut, "kept in memory all the same")
    }

    @Test func inMemoryStateNeedsNoDirectory() throws {
        let state = InMemoryReporterState(installationID: "0123456789abcdef0123456789abcdef")
        #expect(state.installationID() == "0123456789abcdef0123456789abcdef")
        try state.setPrivacyStatus(.unknown)
        #expect(state.privacyStatus() == .unknown)
        // Without a state directory the runtime makes the id from its random source.
        var random = SeededGenerator(seed: 5)
        #expect(InstallationID.isValid(InMemoryReporterState(installationID: InstallationID.make(using: &random)).installationID()))
    }
}

import Foundation
import Testing

@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// One daemon per state directory: the second lock on it is refused, naming the holder.
@Suite(.timeLimit(.minutes(2))) struct StateDirectoryLockTests {
    @Test func aSecondLockOnTheDirectoryIsRefusedNamingTheHolder() async throws {
        try await withTemporaryDirectory { root in
            let directory = root + "/state"
            let first = StateDirectoryLock(directory: directory)
            try first.acquire()
            // Taking it again in the process that holds it changes nothing.
            try first.acquire()
            let contents = try String(contentsOfFile: first.path, encoding: .utf8)
            #expect(contents == "\(getpid())\n")
            let error = try #require(throws: StateDirectoryLockError.self) { try StateDirectoryLock(directory: directory).acquire() }
            #expect(error.kind == .held(by: getpid()))
            #expect(error.description == "the state directory \(directory) is in use by another beaconctl daemon, process \(getpid())")
        }
    }

    @Test func theLockFileIsPrivateToItsOwner() async throws {
        try await withTemporaryDirectory { root in
            let lock = StateDirectoryLock(directory: root + "/a/b")
            try lock.acquire()
            var info = stat()
            #expect(stat(lock.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            #expect(stat(root + "/a/b", &info) == 0 && info.st_mode & 0o777 == 0o700)
        }
    }

    @Test func aDirectoryThatCannotBeMadeIsUnavailableNotHeld() async throws {
        try await withTemporaryDirectory { root in
            let file = root + "/file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            let error = try #require(throws: StateDirectoryLockError.self) { try StateDirectoryLock(directory: file + "/state").acquire() }
            guard case .unavailable(let reason) = error.kind else {
                Issue.record("expected unavailable, got \(error)")
                return
            }
            #expect(reason.contains("Not a directory"), "\(reason)")
        }
    }
}

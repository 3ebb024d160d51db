import BeaconSimulator
import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct NotifySocketTests {
    /// The whole of a /proc file, which claims size 0 and is read until the end.
    static func readProcFile(_ path: String) throws -> String {
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        return String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    }

    @Test(arguments: [
        [:], ["NOTIFY_SOCKET": ""], ["NOTIFY_SOCKET": "relative/notify"], ["NOTIFY_SOCKET": "@"], ["NOTIFY_SOCKET": "/"],
        ["NOTIFY_SOCKET": "/" + String(repeating: "x", count: 108)],
    ])
    func absentWithoutAUsableName(environment: [String: String]) {
        #expect(NotifySocket(environment: environment) == nil)
    }

    @Test func sendsOneDatagramPerMessageToAPath() async throws {
        try await withTemporaryDirectory { directory in
            let manager = try SimulatedServiceManager(notifySocket: "\(directory)/notify")
            let socket = try #require(NotifySocket(environment: ["NOTIFY_SOCKET": manager.notifySocket]))
            socket.send("READY=1\nSTATUS=idle")
            socket.send("WATCHDOG=1")
            try await eventually("two datagrams") { manager.messages().count == 2 }
            #expect(manager.messages() == ["READY=1\nSTATUS=idle", "WATCHDOG=1"])
        }
    }

    @Test func reachesAnAbstractSocket() async throws {
        let name = "@beaconctl-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let manager = try SimulatedServiceManager(notifySocket: name)
        // The kernel lists abstract names with a leading @ (and any NUL of a wrong length as @ too).
        let listed = try Self.readProcFile("/proc/net/unix").split(separator: "\n").filter { $0.contains(name.dropFirst()) }
        #expect(listed.count == 1 && listed[0].hasSuffix(" \(name)"), "\(listed)")
        #expect(!FileManager.default.fileExists(atPath: name), "a file named \(name), not an abstract socket")
        let socket = try #require(NotifySocket(environment: ["NOTIFY_SOCKET": name]))
        socket.send("STOPPING=1")
        try await eventually("the datagram") { manager.messages() == ["STOPPING=1"] }
    }

    @Test func nobodyListeningIsNoError() async throws {
        try await withTemporaryDirectory { directory in
            let socket = try #require(NotifySocket(environment: ["NOTIFY_SOCKET": "\(directory)/gone"]))
            socket.send("READY=1")
        }
    }
}

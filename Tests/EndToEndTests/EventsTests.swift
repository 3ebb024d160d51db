import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Synchronization
import Testing

/// The event history through the real binary: codes for failures, `events --follow`, slow followers.
@Suite(.timeLimit(.minutes(5))) struct EventsTests {
    @Test func noDaemonIsAClearErrorForEvents() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for arguments in [["events"], ["events", "--follow"]] {
            let result = try await runBeaconctl(arguments + ["--socket", directory.file("none.sock")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("no daemon is listening on"), "\(result.stderr)")
        }
    }

    @Test func aMetadataFailureIsRecordedWithItsDocumentedCode() async throws {
        let failing = Atomic(false)
        try await withAdService(route: { request in
            failing.load(ordering: .relaxed) && request.path.hasSuffix("/metadata") ? .status(500) : nil
        }) { service in
            service.serve(Ads.document([Ads.adBreak(id: "p1", start: Ads.t0 + 60_000, on: service)]))
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
            try await withDaemon(["--media-url", mediaURL, "--metadata-interval", "0.2"]) { daemon in
                try await daemon.waitForStatus("the pod known") { $0.adBreaks.count == 1 }
                failing.store(true, ordering: .relaxed)
                let errors = try await daemon.waitForStatus("a failed refresh") { $0.counters.metadataErrors >= 1 }.counters.metadataErrors
                failing.store(false, ordering: .relaxed)
                service.serve(body: "<html>not json</html>")
                try await daemon.waitForStatus("a rejected body") { $0.lastError?.contains("rejected") == true }
                #expect(try await daemon.status().counters.metadataErrors > errors)

                let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
                #expect(json.status == 0, "\(json.stderr)")
                let entries = try json.stdout.split(separator: "\n").map { try EventEntry.decode(jsonLine: String($0)) }
                #expect(entries.map(\.sequence) == Array(1...UInt64(entries.count)))
                #expect(entries.prefix(3).map(\.name) == ["sessionStarting", "sessionReady", "metadataApplied"])
                #expect(entries.prefix(3).map(\.code) == [302001, 302002, 303001])
                let failures = entries.filter { $0.code == 103001 }
                #expect(failures.allSatisfy { $0.name == "metadataFailed" && $0.severity == .error })
                #expect(failures.contains { $0.details["reason"] == "HTTP 500" }, "\(json.stdout)")
                #expect(failures.contains { $0.details["reason"]?.hasPrefix("rejected") == true }, "\(json.stdout)")
                // A refresh that repeats the ad breaks is not recorded again after the first.
                #expect(entries.filter { $0.code == 303001 }.count <= failures.count + 1)

                let human = try await runBeaconctl(["events", "--socket", daemon.socketPath])
                #expect(human.status == 0, "\(human.stderr)")
                #expect(human.stdout.split(separator: "\n").contains { $0.contains("  ERROR    103001  metadataFailed  reason=\"HTTP 500\"") }, "\(human.stdout)")
            }
        }
    }

    @Test func followStreamsEachNewEntryAsItHappensAndEndsWithTheDaemon() async throws {
        try await withDaemon([]) { daemon in
            try await daemon.waitUntilListening()
            let follower = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["events", "--follow", "--json", "--socket", daemon.socketPath])
            defer { follower.kill() }
            _ = try await daemon.request("first-garbage")
            try await eventually("the first entry streamed") { follower.stdout.text.contains("first-garbage") }
            // The follower is connected now: this entry can only reach it live.
            _ = try await daemon.request("second-garbage")
            try await eventually("the second entry streamed") { follower.stdout.text.contains("second-garbage") }
            let streamed = try follower.stdout.lines.map(EventEntry.decode(jsonLine:))
            #expect(streamed.map(\.code) == [201001, 201001])
            #expect(streamed.map(\.sequence) == [1, 2])

            // A second follower, in the human form, leaves when it is stopped; the daemon goes on.
            let human = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["events", "--follow", "--socket", daemon.socketPath])
            defer { human.kill() }
            try await eventually("the human follower caught up") { human.stdout.lines.count == 2 }
            #expect(human.stdout.lines[0].contains("  WARNING  201001  lineRejected  reason=\"unknown command 'first-garbage'\""), "\(human.stdout.text)")
            human.terminate()
            try await human.waitForExit()
            _ = try await daemon.request("third-garbage")
            try await eventually("the third entry streamed") { follower.stdout.text.contains("third-garbage") }
            #expect(try await daemon.status().counters.badLines == 3)

            // The daemon's shutdown ends the stream: the follower exits 0.
            daemon.terminate()
            #expect(try await daemon.waitForExit() == 0)
            #expect(try await follower.waitForExit(timeout: .seconds(10)) == 0, "\(follower.stderr.text)")
        }
    }

    @Test func aFollowerThatNeverReadsStallsNeitherTicksNorOtherClients() async throws {
        try await withDaemon(["--stdin"]) { daemon in
            try await daemon.waitUntilListening()
            let stalled = try RawSocketConnection.open(path: daemon.socketPath, sending: ["events follow"])
            // Each refused line is a history entry of about 150 bytes for the follower: 10 000 of them
            // are far more than its socket and its connection's outbound buffer hold.
            let flood = (0..<10_000).map { "flood-\($0)" }
            let replies = try await RawSocketConnection.exchange(path: daemon.socketPath, lines: flood)
            #expect(replies.count > 0)
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: Ads.t0 + 10_000)
            daemon.send(feed.lines)
            let report = try await daemon.waitForStatus("every tick and refused line handled") {
                $0.counters.ticks == feed.tickCount && $0.counters.badLines == flood.count
            }
            #expect(report.state == "idle")
            // It was cut off: what it had been sent before the cut is there, then the end of the
            // stream, far less than the flood.
            let received = try await RawSocketConnection.readToEnd(stalled)
            #expect(received > 0)
            #expect(received < flood.count * 100)
            let json = try await runBeaconctl(["events", "--json", "--socket", daemon.socketPath])
            #expect(json.status == 0)
            #expect(json.stdout.split(separator: "\n").count == EventHistoryRecorder.defaultCapacity)
            try await finish(daemon)
        }
    }
}

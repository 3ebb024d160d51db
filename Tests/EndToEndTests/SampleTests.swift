import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The files in `samples/` do what `samples/README.md` promises, so the sample never rots.
@Suite(.timeLimit(.minutes(5))) struct SampleTests {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples")

    static func sample(_ name: String) -> String { samples.appendingPathComponent(name).path }

    static func metadata() throws -> String { try String(contentsOfFile: sample("metadata.json"), encoding: .utf8) }

    /// Serves the sample metadata, its beacons going to this test's sink instead of port 8080.
    static func serve(_ metadata: String, on service: AdService) {
        service.serve(body: metadata.replacingOccurrences(
            of: "http://127.0.0.1:8080/beacon.txt", with: service.baseURL + AdService.sinkPath))
    }

    /// What the sample README promises: each ad's playback events once, the pause and mute of
    /// the first ad and their resume and unmute, no click.
    static func expectTheSampleBeacons(_ service: AdService, sourceLocation: SourceLocation = #_sourceLocation) {
        func count(_ ad: String, _ event: TrackingEventType) -> Int {
            service.beacons.filter { beacon in
                let items = (beacon.query ?? "").split(separator: "&")
                return items.contains("ad=\(ad)") && items.contains("event=\(event.rawValue)")
            }.count
        }
        for ad in ["sample-ad-1", "sample-ad-2"] {
            for event in [TrackingEventType.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete] {
                #expect(count(ad, event) == 1, "\(event) of \(ad)\n\(service.beaconSummary)", sourceLocation: sourceLocation)
            }
            #expect(count(ad, .clickTracking) == 0, sourceLocation: sourceLocation)
        }
        for event in [TrackingEventType.pause, .mute, .resume, .unmute] {
            #expect(count("sample-ad-1", event) == 1, "\(event) of the first ad", sourceLocation: sourceLocation)
            #expect(count("sample-ad-2", event) == 0, "\(event) of the second ad", sourceLocation: sourceLocation)
        }
        #expect(service.beacons.count == 16, "\(service.beaconSummary)", sourceLocation: sourceLocation)
    }

    /// Feeds `lines` to a daemon on the sample metadata to their end, then expects the sample's beacons.
    static func expectTheSampleBeacons(fromPlaying lines: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let metadata = try metadata()
        try await withPlayback(serving: { serve(metadata, on: $0) }) { service, daemon in
            daemon.send(lines)
            try await finish(daemon, sourceLocation: sourceLocation)
            expectTheSampleBeacons(service, sourceLocation: sourceLocation)
        }
    }

    @Test func theSampleFeedFiresWhatTheSampleReadmePromises() async throws {
        let ticks = try String(contentsOfFile: Self.sample("ticks.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        try await Self.expectTheSampleBeacons(fromPlaying: ticks)
    }

    /// The same feed after a `load` line on stdin, piped at once: the ticks wait for that
    /// session's first metadata, as they wait for `--media-url`'s, instead of racing it.
    @Test func theSampleFeedAfterALoadOnStdinFiresTheSame() async throws {
        let ticks = try String(contentsOfFile: Self.sample("ticks.txt"), encoding: .utf8).split(separator: "\n").map(String.init)
        let metadata = try Self.metadata()
        try await withAdService { service in
            Self.serve(metadata, on: service)
            try await withDaemon(["--stdin"]) { daemon in
                daemon.send(["load \(service.baseURL)/live/master.m3u8?sessid=e2e"] + ticks)
                try await finish(daemon)
                Self.expectTheSampleBeacons(service)
            }
        }
    }

    @Test func theRecordedLogReplaysFasterAndFiresTheSame() async throws {
        let replay = try await runProgram("/bin/sh", [Self.sample("replay-ticks.sh"), "-s", "50", Self.sample("recorded-ticks.log")])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(replay.stderr.isEmpty, "\(replay.stderr)")
        let lines = replay.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 149)
        #expect(lines.first == #"{"playhead": 1767225600000, "at": 1767225600000}"#)
        #expect(lines.contains("pause"))
        // Paused: the playhead holds while the recorded clock runs on.
        #expect(lines.contains(#"{"playhead": 1767225613000, "at": 1767225613750}"#))
        try await Self.expectTheSampleBeacons(fromPlaying: lines)
    }

    @Test func theLauncherHandsTheManifestToThePlayerAndPipesItsOutput() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        // A player that notes the URL it was given and prints the recorded feed, 50 times faster.
        let player = directory.file("player.sh")
        try """
            printf '%s\\n' "$1" > '\(directory.file("manifest"))'
            exec /bin/sh '\(Self.sample("replay-ticks.sh"))' -s 50 '\(Self.sample("recorded-ticks.log"))'
            """.write(toFile: player, atomically: true, encoding: .utf8)
        try await withAdService { service in
            Self.serve(try Self.metadata(), on: service)
            let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
            let launch = try await runProgram(
                "/bin/sh", [Self.sample("launch.sh"), mediaURL, "/bin/sh", player],
                environment: ["BEACONCTL": BeaconctlBinary.path, "RUN_OPTIONS": "--socket \(directory.file("c.sock"))"],
                timeout: .seconds(60))
            #expect(launch.status == 0, "\(launch.stderr.suffix(3000))")
            let manifest = try String(contentsOfFile: directory.file("manifest"), encoding: .utf8)
            #expect(manifest == mediaURL + "\n")
            Self.expectTheSampleBeacons(service)
        }
    }

    @Test func theLauncherFailsWithoutASession() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let launch = try await runProgram(
            "/bin/sh", [Self.sample("launch.sh"), "ftp://example.invalid/live.m3u8", "/bin/echo"],
            environment: ["BEACONCTL": BeaconctlBinary.path, "RUN_OPTIONS": "--socket \(directory.file("c.sock"))"])
        #expect(launch.status != 0)
        #expect(launch.stdout.isEmpty, "the player never ran: \(launch.stdout)")
    }
}

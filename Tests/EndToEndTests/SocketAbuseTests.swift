import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator
import Foundation
import Synchronization
import Testing

/// Test 6, socket abuse: hostile clients on the control socket must not delay the beacons a
/// well-behaved client's ticks fire. The same playback runs without abuse, as a control.
@Suite(.serialized, .timeLimit(.minutes(5))) struct SocketAbuseTests {
    let adBreakStart = Ads.t0 + 3_000
    /// Short, as the abuse loads the machine for as long as the ad plays: a quartile a second.
    static let adDuration: Milliseconds = 4_000
    /// Loose on purpose: the machine is shared; a hung or starved daemon takes far longer.
    static let latencyBound: Duration = .seconds(2)
    static let idleClients = 200
    /// The well-behaved, slow-drip, flood and long-line clients.
    static let activeClients = 4

    @Test(arguments: [false, true])
    func wellBehavedTicksFireBeaconsOnTime(underAbuse: Bool) async throws {
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: Self.adDuration, userEvents: false, on: $0)] }) {
            service, daemon in
            try await daemon.waitForStatus("the ad break from the metadata") { $0.adBreaks.count == 1 }
            try Self.expectPrivateSocket(daemon.socketPath)
            let wellBehaved = try await ControlClient.connect(path: daemon.socketPath)[0]

            let abuse = underAbuse ? try await Abuse.start(path: daemon.socketPath) : nil
            // Playback through the ad break at 1x, in real time, one tick every 250 ms.
            var feed = TickFeed(from: adBreakStart - 1_000)
            feed.play(to: adBreakStart + Self.adDuration + 500)
            async let longLineReplies = abuse?.sendLongLine()
            var sentAt: [(playhead: Milliseconds, at: ContinuousClock.Instant)] = []
            var playhead = adBreakStart - 1_000
            for line in feed.lines {
                sentAt.append((playhead, .now))
                try await wellBehaved.send(line: line)
                playhead += 250
                try await Task.sleep(for: .milliseconds(250))
            }
            try await eventually(timeout: .seconds(10), "every playback beacon of the break\n\(service.beaconSummary)") {
                Ads.playbackTypes.allSatisfy { service.beaconCount(ad: "p1-a1", $0) >= 1 }
            }

            var latencies: [Duration] = []
            for type in Ads.playbackTypes {
                let beacons = service.beacons(ad: "p1-a1", type)
                #expect(beacons.count == 1, "\(type)\n\(service.beaconSummary)")
                let start = adBreakStart + StandardAd.offset(of: type, duration: Self.adDuration)
                // The tick that first reached the event's start fired it.
                let tick = try #require(sentAt.first { $0.playhead >= start })
                let latency = beacons[0].at - tick.at
                latencies.append(latency)
                #expect(latency < Self.latencyBound, "\(type) came \(latency) after its tick")
            }
            let median = latencies.sorted()[latencies.count / 2]
            print("socket abuse \(underAbuse ? "on" : "off"): tick-to-beacon latency median \(median), max \(latencies.max()!)")

            if let abuse {
                let replies = try await longLineReplies ?? []
                #expect(replies.first?.contains(#""error""#) == true && replies.first?.contains("line longer than 65536 bytes") == true)
                #expect(replies.count == 2 && (try? StatusReport.decode(jsonLine: replies[1])) != nil, "the connection serves the next line: \(replies)")
                try await abuse.finish()
                print("socket abuse: flood wrote \(abuse.floodLines) lines; daemon peak RSS \(Self.peakResidentKiB(daemon.child.processIdentifier) ?? -1) KiB")
            }
            // The slots of the clients that left are free again, and every tick was handled.
            try await eventually("status from a new client, counting every tick") {
                let reply = try await daemon.statusLine()
                guard reply != ControlSocketServer.tooManyClientsReply else { return false }
                return try StatusReport.decode(jsonLine: reply).counters.ticks == feed.tickCount
            }
            try await finish(daemon)
            expectEachPlaybackEventOnce(service, ads: ["p1-a1"])
        }
    }

    /// The socket file is for its owner (and at most its group), in a directory that is this user's alone.
    static func expectPrivateSocket(_ path: String) throws {
        var info = stat()
        try #require(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o7777 & ~0o660 == 0, "socket mode \(String(info.st_mode & 0o7777, radix: 8))")
        let directory = (path as NSString).deletingLastPathComponent
        try #require(stat(directory, &info) == 0)
        #expect(info.st_uid == geteuid())
        #expect(info.st_mode & 0o022 == 0, "directory mode \(String(info.st_mode & 0o7777, radix: 8))")
    }

    /// The daemon's peak resident memory, from /proc.
    static func peakResidentKiB(_ pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.split(separator: " ")[1])
    }
}

/// The hostile clients, connected after the well-behaved one: one dripping a byte at a time,
/// one flooding lines as fast as the daemon takes them, one for a 1 MiB line, then 200 idle
/// ones, most of which are over the limit and refused.
private final class Abuse: Sendable {
    let drip: ControlClient
    let flood: ControlClient
    let longLine: ControlClient
    let idle: [ControlClient]
    private let stopped = Atomic(false)
    private let floodLinesWritten = Atomic(0)
    private let writers: DispatchGroup

    var floodLines: Int { floodLinesWritten.load(ordering: .relaxed) }

    private init(drip: ControlClient, flood: ControlClient, longLine: ControlClient, idle: [ControlClient]) {
        self.drip = drip
        self.flood = flood
        self.longLine = longLine
        self.idle = idle
        writers = DispatchGroup()
    }

    static func start(path: String) async throws -> Abuse {
        let clients = try await ControlClient.connect(path: path, count: 3)
        let idle = try await ControlClient.connect(path: path, count: SocketAbuseTests.idleClients)
        let abuse = Abuse(drip: clients[0], flood: clients[1], longLine: clients[2], idle: idle)
        abuse.startWriters()
        try await abuse.expectRefusals()
        return abuse
    }

    /// Idle clients past the limit get one line and are closed; the others stay, silent.
    private func expectRefusals() async throws {
        let slots = 64 - SocketAbuseTests.activeClients
        try await eventually(timeout: .seconds(20), "every idle client past the limit refused") {
            idle.count { $0.poll().closed } >= idle.count - slots
        }
        let refused = idle.filter { $0.poll().closed }
        for client in refused {
            #expect(client.poll().lines == [ControlSocketServer.tooManyClientsReply])
        }
        let accepted = idle.filter { !$0.poll().closed }
        #expect(accepted.allSatisfy { $0.poll().lines.isEmpty })
        #expect(accepted.count + SocketAbuseTests.activeClients <= 64)
        print("socket abuse: \(accepted.count) idle clients accepted, \(refused.count) refused")
    }

    private func startWriters() {
        // One byte every 100 ms, never a whole line.
        writers.enter()
        writers.enter()
        Thread { [self] in
            defer { writers.leave() }
            while !stopped.load(ordering: .relaxed) {
                guard (try? drip.sendBlocking(Array("s".utf8))) != nil else { return }
                Thread.sleep(forTimeInterval: 0.1)
            }
        }.start()
        // As fast as the daemon takes them: the cheapest line that changes nothing and the
        // dearest one, whose replies are never read.
        Thread { [self] in
            defer { writers.leave() }
            let pair = "status\nrate 1\n"
            let batch = Array(String(repeating: pair, count: 4_096).utf8)
            while !stopped.load(ordering: .relaxed) {
                do {
                    try flood.sendBlocking(batch)
                    floodLinesWritten.add(2 * 4_096, ordering: .relaxed)
                } catch {
                    if stopped.load(ordering: .relaxed) { return }
                }
            }
        }.start()
    }

    /// A 1 MiB line, then `status`: the replies to both.
    func sendLongLine() async throws -> [String] {
        try await longLine.send(Array(String(repeating: "x", count: 1 << 20).utf8) + Array("\nstatus\n".utf8))
        return try await longLine.lines(2, timeout: .seconds(20))
    }

    func finish() async throws {
        stopped.store(true, ordering: .relaxed)
        flood.hangUp()
        drip.hangUp()
        await withCheckedContinuation { continuation in writers.notify(queue: .global()) { continuation.resume() } }
        for client in idle { client.hangUp() }
    }
}

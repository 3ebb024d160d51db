import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// `beaconctl watch` through the real binary: plain frames on a pipe, a live view on a terminal.
@Suite(.timeLimit(.minutes(5))) struct WatchTests {
    @Test func onceWithoutADaemonExitsOne() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let result = try await runBeaconctl(["watch", "--once", "--socket", directory.file("none.sock")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no daemon is listening on"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func aPlainFrameShowsTheAdPlayingAndTheLastProblems() async throws {
        let adBreakStart = Ads.t0 + 2_000
        try await withPlayback(adBreaks: { [Ads.adBreak(id: "p1", start: adBreakStart, adDuration: 30_000, on: $0)] }) { _, daemon in
            var feed = TickFeed(from: Ads.t0)
            feed.play(to: adBreakStart + 3_000)
            daemon.send(feed.lines + ["no-such-command"])
            try await daemon.waitForStatus("start done and the bad line seen") {
                $0.state(ofAd: "p1-a1", .start) == .done && $0.counters.badLines == 1
            }
            let result = try await runBeaconctl(["watch", "--once", "--socket", daemon.socketPath])
            #expect(result.status == 0, "\(result.stderr)")
            let frame = result.stdout
            #expect(!frame.contains("\u{1B}"), "\(frame)")
            #expect(frame.hasPrefix("beaconctl watch   "))
            #expect(frame.contains("state         playing   session e2e"), "\(frame)")
            #expect(frame.contains("ad break      p1   ad 1 of 1: p1-a1"), "\(frame)")
            #expect(frame.contains("progress      ["), "\(frame)")
            #expect(frame.contains("  done        start "), "\(frame)")
            #expect(frame.contains("  idle        complete "), "\(frame)")
            #expect(frame.contains("WARNING  201001  lineRejected  reason=\"unknown command 'no-such-command'\""), "\(frame)")
        }
    }

    @Test func onAPipeFramesRepeatAsPlainTextAndWaitForTheDaemon() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let socket = directory.file("c.sock")
        let watch = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["watch", "--interval", "0.2", "--socket", socket])
        defer { watch.kill() }
        try await eventually("a waiting frame") { watch.stdout.text.contains("waiting for daemon: no daemon is listening on \(socket)") }
        let daemon = try ChildProcess(executable: BeaconctlBinary.path, arguments: ["run", "--socket", socket])
        defer { daemon.kill() }
        try await eventually("frames of the idle daemon") {
            watch.stdout.text.components(separatedBy: "state         idle").count > 2
        }
        #expect(!watch.stdout.text.contains("\u{1B}"))
        #expect(watch.exitStatus == nil)
    }

    /// Runs `beaconctl watch` on a pseudo-terminal for `seconds`, then sends it SIGINT; returns
    /// everything it wrote and its exit status, as reported by a small python driver.
    static func watchOnTerminal(socket: String, noColor: Bool, seconds: Double = 1.5) async throws -> (output: String, status: Int32) {
        let driver = """
            import os, pty, signal, struct, sys, time, select, fcntl, termios
            no_color, seconds, command = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
            pid, fd = pty.fork()
            if pid == 0:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
                os.environ.pop("NO_COLOR", None)
                if no_color == "1":
                    os.environ["NO_COLOR"] = "1"
                os.execv(command[0], command)
            out = b""
            def pump(until):
                global out
                while time.time() < until:
                    ready, _, _ = select.select([fd], [], [], 0.05)
                    if ready:
                        try:
                            data = os.read(fd, 65536)
                        except OSError:
                            return
                        if not data:
                            return
                        out += data
            pump(time.time() + seconds)
            os.kill(pid, signal.SIGINT)
            pump(time.time() + 5)
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.stdout.flush()
            sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 99)
            """
        let python = try ChildProcess(
            executable: "/usr/bin/env",
            arguments: ["python3", "-c", driver, noColor ? "1" : "0", "\(seconds)", BeaconctlBinary.path, "watch", "--interval", "0.2", "--socket", socket])
        defer { python.kill() }
        let status = try await python.waitForExit(timeout: .seconds(30))
        try await eventually("the driver's output to end") { python.stdout.isFinished }
        return (python.stdout.text, status)
    }

    @Test func onATerminalItRedrawsInPlaceInColourAndRestoresTheCursorOnInterrupt() async throws {
        try await withDaemon([]) { daemon in
            try await daemon.waitUntilListening()
            let (output, status) = try await Self.watchOnTerminal(socket: daemon.socketPath, noColor: false)
            #expect(status == 130, "\(output)")
            #expect(output.hasPrefix("\u{1B}[?25l\u{1B}[2J"), "\(output.prefix(40).debugDescription)")
            #expect(output.components(separatedBy: "\u{1B}[H").count > 2, "several frames drawn over each other")
            #expect(output.contains("\u{1B}[36midle\u{1B}[0m"), "\(output.debugDescription)")
            #expect(output.hasSuffix("\u{1B}[0m\u{1B}[?25h\r\n"), "\(output.suffix(40).debugDescription)")
        }
    }

    @Test func noColorKeepsTheLiveViewWithoutColours() async throws {
        try await withDaemon([]) { daemon in
            try await daemon.waitUntilListening()
            let (output, status) = try await Self.watchOnTerminal(socket: daemon.socketPath, noColor: true)
            #expect(status == 130, "\(output)")
            #expect(output.contains("\u{1B}[H"))
            #expect(output.contains("state         idle"), "\(output.debugDescription)")
            // No colour: the only SGR sequence is the reset written on the way out.
            for code in ["1", "2", "31", "32", "33", "36"] {
                #expect(!output.contains("\u{1B}[\(code)m"), "\(code): \(output.debugDescription)")
            }
            #expect(output.components(separatedBy: "\u{1B}[0m").count == 2)
            #expect(output.hasSuffix("\u{1B}[0m\u{1B}[?25h\r\n"))
        }
    }
}

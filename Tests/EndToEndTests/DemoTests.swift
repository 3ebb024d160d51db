import Testing

/// `beaconctl demo` runs on loopback only.
@Suite(.timeLimit(.minutes(5))) struct DemoTests {
    /// What `beaconctl demo <arguments>` printed, once it exited 0.
    static func demo(_ arguments: [String] = []) async throws -> String {
        let result = try await runBeaconctl(["demo"] + arguments, timeout: .seconds(90))
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout
    }

    @Test func demoRunsForThreeSeconds() async throws {
        let result = try await runBeaconctl(["demo", "--duration", "3"], timeout: .seconds(30))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("simulated ad-insertion service on http://127.0.0.1:"), "\(result.stdout)")
        #expect(result.stdout.contains("summary:"), "\(result.stdout)")
    }

    /// The MediaTailor demo plays its whole ad break: the ad-break events and every ad's beacons reach the sink.
    @Test func mediaTailorDemoPlaysTheAdBreak() async throws {
        let stdout = try await Self.demo(["--dialect", "mediatailor"])
        #expect(stdout.contains("simulated MediaTailor service on http://127.0.0.1:"), "\(stdout)")
        for event in ["breakStart", "breakEnd", "impression", "complete"] {
            #expect(stdout.contains("\(event) "), "\(stdout)")
        }
        #expect(stdout.contains("summary: 18 tracking events done, 0 failed; 18 beacons sent, 18 received by the sink"), "\(stdout)")
    }

    /// The demo's media-analytics reporter reports the playback to the simulated Media Collection
    /// API, shown beside the beacons; the double finds nothing to refuse.
    @Test func demoShowsTheMediaAnalyticsCalls() async throws {
        let stdout = try await Self.demo()
        for call in ["sessionStart", "adBreakStart", "adStart", "pauseStart", "adComplete", "adBreakComplete", "sessionEnd"] {
            #expect(stdout.contains("\(call) ") && stdout.contains("media-analytics"), "\(call)\n\(stdout)")
        }
        #expect(stdout.contains("0 refused, 0 of them the reporter's fault"), "\(stdout)")
        #expect(stdout.contains("summary: 16 tracking events done, 0 failed; 16 beacons sent, 16 received by the sink"), "\(stdout)")
    }

    /// `demo --interstitials` plays the ad break as an HLS interstitial: every beacon once, and the
    /// media-analytics ad lifecycle from the interstitial's ticks.
    @Test func interstitialDemoPlaysTheAdBreakAsAnInterstitial() async throws {
        let stdout = try await Self.demo(["--interstitials"])
        #expect(stdout.contains("played as an HLS interstitial"), "\(stdout)")
        for call in ["adBreakStart", "adStart", "adComplete", "adBreakComplete"] {
            #expect(stdout.contains("\(call) "), "\(call)\n\(stdout)")
        }
        #expect(stdout.contains("summary: 16 tracking events done, 0 failed; 16 beacons sent, 16 received by the sink"), "\(stdout)")
    }

    @Test func interstitialsNeedTheHarmonicService() async throws {
        let result = try await runBeaconctl(["demo", "--interstitials", "--dialect", "mediatailor"], timeout: .seconds(30))
        #expect(result.status != 0)
        #expect(result.stderr.contains("--interstitials plays the simulated Harmonic service only"), "\(result.stderr)")
    }
}

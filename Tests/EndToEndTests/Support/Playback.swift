import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Testing

/// Runs `body` with an ad service serving `adBreaks` and a daemon reading stdin for a session on it.
/// The media URL carries `sessid`, so no init request is needed; the metadata is polled at once.
func withPlayback(
    arguments: [String] = [],
    environment: [String: String] = [:],
    configure: (AdService) -> Void = { _ in },
    adBreaks: (AdService) -> [AdBreak],
    _ body: (AdService, DaemonProcess) async throws -> Void
) async throws {
    try await withPlayback(
        arguments: arguments, environment: environment,
        serving: { service in
            configure(service)
            service.serve(Ads.document(adBreaks(service)))
        }, body)
}

/// Runs `body` with an ad service set up by `serving` and a daemon reading stdin for a session on it.
func withPlayback(
    arguments: [String] = [],
    environment: [String: String] = [:],
    serving: (AdService) -> Void,
    _ body: (AdService, DaemonProcess) async throws -> Void
) async throws {
    try await withAdService { service in
        serving(service)
        let mediaURL = "\(service.baseURL)/live/master.m3u8?sessid=e2e"
        try await withDaemon(["--media-url", mediaURL, "--stdin"] + arguments, environment: environment) { daemon in
            try await daemon.waitUntilListening()
            try await body(service, daemon)
        }
    }
}

/// Ends the daemon's input and expects it to drain and exit 0: every line was handled and every
/// beacon it fired has been answered once this returns.
func finish(_ daemon: DaemonProcess, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    daemon.closeInput()
    let status = try await daemon.waitForExit()
    #expect(status == 0, "exit status\n\(daemon.stderrText.suffix(2000))", sourceLocation: sourceLocation)
}

/// Expects exactly one beacon for each playback event of each of `ads`, and no user event.
func expectEachPlaybackEventOnce(
    _ service: AdService, ads: [String], sourceLocation: SourceLocation = #_sourceLocation
) {
    for ad in ads {
        for type in Ads.playbackTypes {
            #expect(service.beaconCount(ad: ad, type) == 1, "\(type) of \(ad)\n\(service.beaconSummary)", sourceLocation: sourceLocation)
        }
        for type in Ads.userTypes {
            #expect(service.beaconCount(ad: ad, type) == 0, "\(type) of \(ad)", sourceLocation: sourceLocation)
        }
    }
}

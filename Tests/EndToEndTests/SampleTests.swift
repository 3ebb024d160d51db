import BeaconCore
import Foundation
import Testing

/// The files in `samples/` do what `samples/README.md` promises, so the sample never rots.
@Suite struct SampleTests {
    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples")

    @Test func theSampleFeedFiresWhatTheSampleReadmePromises() async throws {
        let metadata = try String(contentsOf: Self.samples.appendingPathComponent("metadata.json"), encoding: .utf8)
        let ticks = try String(contentsOf: Self.samples.appendingPathComponent("ticks.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        try await withPlayback(serving: { service in
            // The sample's beacons go to a static file server on port 8080; here, to this test's sink.
            service.serve(body: metadata.replacingOccurrences(
                of: "http://127.0.0.1:8080/beacon.txt", with: service.baseURL + AdService.sinkPath))
        }) { service, daemon in
            daemon.send(ticks)
            try await finish(daemon)
            func count(_ ad: String, _ event: TrackingEventType) -> Int {
                service.beacons.filter { beacon in
                    let items = (beacon.query ?? "").split(separator: "&")
                    return items.contains("ad=\(ad)") && items.contains("event=\(event.rawValue)")
                }.count
            }
            for ad in ["sample-ad-1", "sample-ad-2"] {
                for event in [TrackingEventType.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete] {
                    #expect(count(ad, event) == 1, "\(event) of \(ad)\n\(service.beaconSummary)")
                }
                #expect(count(ad, .clickTracking) == 0)
            }
            for event in [TrackingEventType.pause, .mute, .resume, .unmute] {
                #expect(count("sample-ad-1", event) == 1, "\(event) of the first ad")
                #expect(count("sample-ad-2", event) == 0, "\(event) of the second ad")
            }
            #expect(service.beacons.count == 16, "\(service.beaconSummary)")
        }
    }
}

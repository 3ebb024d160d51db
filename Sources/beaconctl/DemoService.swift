import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator

/// The demo's simulated ad-insertion service, of either dialect, with one ad break ahead, and
/// the simulated Media Collection API the media-analytics reporter sends to.
struct DemoService: Sendable {
    static let adCount = 2
    static let adDuration: Milliseconds = 8000
    /// How long after the start the ad break begins.
    static let lead: Milliseconds = 6000

    var server: HTTPServer
    var mediaURL: String
    /// The ad break on program date time, which the simulated player plays through.
    var adBreak: AdBreak
    var receivedBeacons: @Sendable () -> [SimulatedAdService.ReceivedBeacon]
    var collection: SimulatedMediaCollectionService
    var stop: @Sendable () async -> Void

    /// The media-analytics settings of the demo: its reporter sends to `endpoint`.
    static func mediaAnalytics(endpoint: String) -> MediaAnalyticsSettings {
        var settings = MediaAnalyticsSettings()
        settings.endpoint = endpoint
        settings.trackingServer = "metrics.demo.example"
        settings.reportSuite = "demo-suite"
        settings.orgID = "DEMO@AdobeOrg"
        settings.channel = "demo"
        return settings
    }

    /// Starts both services; `collected` hears of each call the Media Collection API answers.
    static func start(_ dialect: Dialect, collected: @escaping @Sendable (SimulatedMediaCollectionService.Exchange) -> Void) async throws -> DemoService {
        let collection = try await SimulatedMediaCollectionService.start(observer: collected)
        switch dialect {
        case .harmonic:
            let service = try await SimulatedAdService.start(lead: lead, adCount: adCount, adDuration: adDuration)
            return DemoService(
                server: service.server, mediaURL: service.mediaURL, adBreak: service.adBreak, receivedBeacons: service.receivedBeacons,
                collection: collection, stop: { await service.stop(); await collection.stop() })
        case .mediatailor:
            let start = WallClock.now()
            let avail = SimulatedMediaTailorService.Avail(id: "demo-break-1", start: lead, adCount: adCount, adDuration: adDuration)
            let service = try await SimulatedMediaTailorService.start(avails: [avail], programDateTimeStart: start)
            return DemoService(
                server: service.server, mediaURL: service.sessionInitURL,
                adBreak: AdBreak(id: avail.id, startTime: start + avail.start, duration: avail.duration, ads: []),
                receivedBeacons: service.receivedBeacons, collection: collection, stop: { await service.stop(); await collection.stop() })
        }
    }
}

extension Dialect: ExpressibleByArgument {}

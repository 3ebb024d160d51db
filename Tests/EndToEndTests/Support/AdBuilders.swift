import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import BeaconSimulator

/// Builders for metadata: ads whose events signal the test sink, ad breaks, documents.
enum Ads {
    /// 2023-01-31T03:25:34.076Z, the start of the captured sample's ad break.
    static let t0: Milliseconds = 1_675_135_534_076

    /// The playback events every built ad carries, in the order they fire.
    static let playbackTypes = StandardAd.playbackTypes

    static let userTypes = StandardAd.userTypes

    /// An ad break of `count` back-to-back ads named `<id>-a1`, `<id>-a2`..., signaling `service`'s sink.
    static func adBreak(
        id: String, start: Milliseconds, ads count: Int = 1, adDuration: Milliseconds = 12_000,
        userEvents: Bool = true, on service: AdService
    ) -> AdBreak {
        let ads = (0..<count).map { index in
            let adID = "\(id)-a\(index + 1)"
            return StandardAd.make(
                id: adID, start: start + Milliseconds(index) * adDuration, duration: adDuration,
                userTypes: userEvents ? userTypes : []
            ) { [service.beaconURL(ad: adID, $0)] }
        }
        return AdBreak(id: id, startTime: start, duration: Milliseconds(count) * adDuration, ads: ads)
    }

    /// A document holding `adBreaks`, its data range from 10 minutes before `t0` to `rangeEnd`.
    static func document(_ adBreaks: [AdBreak], rangeEnd: Milliseconds? = nil) -> MetadataDocument {
        let end = rangeEnd ?? (adBreaks.map { $0.startTime + $0.duration }.max() ?? t0)
        return MetadataDocument(dataRange: DataRange(start: t0 - 600_000, end: end), adBreaks: adBreaks)
    }
}

extension StatusReport {
    /// Every tracking event of ad `adID`.
    func events(ofAd adID: String) -> [TrackingEvent] {
        adBreaks.flatMap(\.ads).filter { $0.id == adID }.flatMap(\.trackingEvents)
    }

    /// The reporting state of the first `type` event of ad `adID`.
    func state(ofAd adID: String, _ type: TrackingEventType) -> ReportingState? {
        events(ofAd: adID).first { $0.event == type }?.reportingState
    }
}

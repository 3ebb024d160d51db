import BeaconDomain
import BeaconSimulator

/// Metadata shaped like live TV for the benchmarks: a ad break every ten minutes, each of standard
/// 30 s ads, so any size from one ad to days of ad breaks has the same local density.
public enum SyntheticSchedule {
    /// 2023-01-31T03:25:34.076Z, where the captured sample's first ad break starts.
    public static let start: Milliseconds = 1_675_135_534_076
    public static let adBreakSpacing: Milliseconds = 600_000
    public static let adDuration: Milliseconds = 30_000
    /// Matching benchmarks count retained events in tens: the playback events plus four user actions.
    public static let compactUserTypes: [TrackingEventType] = [.pause, .resume, .mute, .unmute]
    public static var eventsPerCompactAd: Int { StandardAd.playbackTypes.count + compactUserTypes.count }

    /// A document holding `events` tracking events (a multiple of ten) in compact ads, four to a ad break.
    public static func document(events: Int) -> MetadataDocument {
        let ads = max(events / eventsPerCompactAd, 1)
        let adBreakCount = (ads + 3) / 4
        let adBreaks = (0..<adBreakCount).map { adBreakIndex in
            adBreak(adBreakIndex, ads: min(4, ads - adBreakIndex * 4), userTypes: compactUserTypes)
        }
        return document(adBreaks)
    }

    /// A document of full standard ads, two to a ad break, at least `bytes` long once encoded:
    /// ~20 KiB is a typical live window, ~1 MiB an unusually large one of hundreds of ad breaks.
    public static func encodedDocument(atLeast bytes: Int) -> [UInt8] {
        let oneAdBreak = Array(document([adBreak(0, ads: 2, userTypes: StandardAd.userTypes)]).encodedJSON().utf8).count
        let adBreakCount = max((bytes + oneAdBreak - 1) / oneAdBreak, 1)
        let adBreaks = (0..<adBreakCount).map { adBreak($0, ads: 2, userTypes: StandardAd.userTypes) }
        return Array(document(adBreaks).encodedJSON().utf8)
    }

    /// The program time at which ad break `index` starts.
    public static func adBreakStart(_ index: Int) -> Milliseconds {
        start + Milliseconds(index) * adBreakSpacing
    }

    private static func adBreak(_ index: Int, ads: Int, userTypes: [TrackingEventType]) -> AdBreak {
        let adBreakStart = adBreakStart(index)
        let made = (0..<ads).map { adIndex in
            let id = "ad-\(index)-\(adIndex)"
            return StandardAd.make(
                id: id, start: adBreakStart + Milliseconds(adIndex) * adDuration, duration: adDuration, userTypes: userTypes
            ) { type in
                ["http://127.0.0.1:4647/beacon?t=1675135535521561377&id=\(id)&cn=\(type.rawValue)"]
            }
        }
        return AdBreak(id: "pod-\(index)", startTime: adBreakStart, duration: Milliseconds(ads) * adDuration, ads: made)
    }

    private static func document(_ adBreaks: [AdBreak]) -> MetadataDocument {
        let end = adBreaks.last.map { $0.startTime + $0.duration } ?? start
        return MetadataDocument(dataRange: DataRange(start: start - adBreakSpacing, end: end), adBreaks: adBreaks)
    }
}

import BeaconDomain
import BeaconSimulator

/// Metadata shaped like live TV for the benchmarks: a pod every ten minutes, each of standard
/// 30 s ads, so any size from one ad to days of pods has the same local density.
public enum SyntheticSchedule {
    /// 2023-01-31T03:25:34.076Z, where the captured sample's first ad break starts.
    public static let start: Milliseconds = 1_675_135_534_076
    public static let podSpacing: Milliseconds = 600_000
    public static let adDuration: Milliseconds = 30_000
    /// Matching benchmarks count retained events in tens: the playback events plus four user actions.
    public static let compactUserTypes: [TrackingEventType] = [.pause, .resume, .mute, .unmute]
    public static var eventsPerCompactAd: Int { StandardAd.playbackTypes.count + compactUserTypes.count }

    /// A document holding `events` tracking events (a multiple of ten) in compact ads, four to a pod.
    public static func document(events: Int) -> MetadataDocument {
        let ads = max(events / eventsPerCompactAd, 1)
        let podCount = (ads + 3) / 4
        let pods = (0..<podCount).map { podIndex in
            pod(podIndex, ads: min(4, ads - podIndex * 4), userTypes: compactUserTypes)
        }
        return document(pods)
    }

    /// A document of full standard ads, two to a pod, at least `bytes` long once encoded:
    /// ~20 KiB is a typical live window, ~1 MiB an unusually large one of hundreds of pods.
    public static func encodedDocument(atLeast bytes: Int) -> [UInt8] {
        let onePod = Array(document([pod(0, ads: 2, userTypes: StandardAd.userTypes)]).encodedJSON().utf8).count
        let podCount = max((bytes + onePod - 1) / onePod, 1)
        let pods = (0..<podCount).map { pod($0, ads: 2, userTypes: StandardAd.userTypes) }
        return Array(document(pods).encodedJSON().utf8)
    }

    /// The program time at which pod `index` starts.
    public static func podStart(_ index: Int) -> Milliseconds {
        start + Milliseconds(index) * podSpacing
    }

    private static func pod(_ index: Int, ads: Int, userTypes: [TrackingEventType]) -> Pod {
        let podStart = podStart(index)
        let made = (0..<ads).map { adIndex in
            let id = "ad-\(index)-\(adIndex)"
            return StandardAd.make(
                id: id, start: podStart + Milliseconds(adIndex) * adDuration, duration: adDuration, userTypes: userTypes
            ) { type in
                ["http://127.0.0.1:4647/beacon?t=1675135535521561377&id=\(id)&cn=\(type.rawValue)"]
            }
        }
        return Pod(id: "pod-\(index)", startTime: podStart, duration: Milliseconds(ads) * adDuration, ads: made)
    }

    private static func document(_ pods: [Pod]) -> MetadataDocument {
        let end = pods.last.map { $0.startTime + $0.duration } ?? start
        return MetadataDocument(dataRange: DataRange(start: start - podSpacing, end: end), pods: pods)
    }
}

import BeaconDomain
import BeaconRuntime

/// Ads shaped like a typical linear video ad: an impression spanning the ad, zero-duration
/// `start`, quartiles and `complete`, and user-action events at its start. The demo's service
/// and the tests build their metadata from it.
public enum StandardAd {
    /// The playback-triggered events of a standard ad, in the order they fire.
    public static let playbackTypes: [TrackingEventType] = [.impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete]

    /// Every user-action event type.
    public static let userTypes: [TrackingEventType] = [
        .pause, .resume, .mute, .unmute, .rewind, .skip, .playerExpand, .playerCollapse, .clickTracking, .clickAbstractType,
    ]

    /// Where an event of `type` starts in an ad of `duration`.
    package static func offset(of type: TrackingEventType, duration: Milliseconds) -> Milliseconds {
        switch type {
        case .firstQuartile: duration / 4
        case .midpoint: duration / 2
        case .thirdQuartile: duration * 3 / 4
        case .complete: duration
        default: 0
        }
    }

    /// An ad with the playback events and `userTypes` events; `urls` gives each event's signaling URLs.
    public static func make(
        id: String, start: Milliseconds, duration: Milliseconds, userTypes: [TrackingEventType] = userTypes,
        urls: (TrackingEventType) -> [String]
    ) -> Ad {
        let playback = playbackTypes.map { type in
            TrackingEvent(
                event: type, startTime: start + offset(of: type, duration: duration),
                duration: type == .impression ? duration : 0, signalingURLs: urls(type))
        }
        let actions = userTypes.map { TrackingEvent(event: $0, startTime: start, duration: 0, signalingURLs: urls($0)) }
        return Ad(id: id, startTime: start, duration: duration, trackingEvents: playback + actions)
    }
}

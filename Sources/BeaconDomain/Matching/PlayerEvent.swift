/// A change of the player's state, named after the player SDKs' track calls.
public enum PlayerEvent: Sendable, Equatable {
    case play
    case pause
    case complete
    case seekStart
    case seekEnd
    case bufferStart
    case bufferEnd
    case rate(Double)
}

/// Something the viewer did to the ad.
package enum UserAction: String, Sendable, Equatable, CaseIterable {
    case mute, unmute, skip, rewind, expand, collapse, click

    /// The tracking event types this action reports.
    package var eventTypes: [TrackingEventType] {
        switch self {
        case .mute: [.mute]
        case .unmute: [.unmute]
        case .skip: [.skip]
        case .rewind: [.rewind]
        case .expand: [.playerExpand]
        case .collapse: [.playerCollapse]
        case .click: [.clickTracking, .clickAbstractType]
        }
    }
}

/// The type of a tracking event, as the metadata names it (`impression`, `firstQuartile`, `mute`, ...).
public struct TrackingEventType: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// How an event of this type comes to fire.
    package enum Trigger: String, Sendable, Equatable {
        /// Fires once per session when playback covers its window.
        case playback
        /// Fires on a player or user action while the playhead lies within the ad, every time.
        case userAction
        /// Fires once, with its ad's impression.
        case impression
        /// Not understood: shown in status, never fired.
        case unknown
    }

    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// The type a metadata document names, whatever its letter case (`Impression`, `FIRSTQUARTILE`):
    /// a known type takes its canonical spelling, an unknown one keeps the name as written.
    package init(named name: String) {
        self = Self.canonical[name] ?? Self.canonical[name.lowercased()] ?? Self(rawValue: name)
    }

    /// Every known type under its canonical name and its lowercase name.
    private static let canonical: [String: Self] = {
        var types: [String: Self] = [:]
        for type in playbackTypes.union(userActionTypes).union([.verificationNotExecuted]) {
            types[type.rawValue] = type
            types[type.rawValue.lowercased()] = type
        }
        return types
    }()

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    package var trigger: Trigger {
        if Self.playbackTypes.contains(self) { return .playback }
        if Self.userActionTypes.contains(self) { return .userAction }
        if self == .verificationNotExecuted { return .impression }
        return .unknown
    }

    public static let impression = Self(rawValue: "impression")
    package static let start = Self(rawValue: "start")
    package static let firstQuartile = Self(rawValue: "firstQuartile")
    package static let midpoint = Self(rawValue: "midpoint")
    package static let thirdQuartile = Self(rawValue: "thirdQuartile")
    package static let complete = Self(rawValue: "complete")
    package static let creativeView = Self(rawValue: "creativeView")
    package static let progress = Self(rawValue: "progress")
    package static let loaded = Self(rawValue: "loaded")
    package static let breakStart = Self(rawValue: "breakStart")
    package static let breakEnd = Self(rawValue: "breakEnd")

    public static let pause = Self(rawValue: "pause")
    public static let resume = Self(rawValue: "resume")
    public static let mute = Self(rawValue: "mute")
    public static let unmute = Self(rawValue: "unmute")
    package static let rewind = Self(rawValue: "rewind")
    package static let skip = Self(rawValue: "skip")
    package static let playerExpand = Self(rawValue: "playerExpand")
    package static let playerCollapse = Self(rawValue: "playerCollapse")
    package static let clickTracking = Self(rawValue: "clickTracking")
    package static let clickAbstractType = Self(rawValue: "clickAbstractType")

    /// Sent, with the VAST `[REASON]` macro, for an ad whose verification scripts the player cannot run.
    package static let verificationNotExecuted = Self(rawValue: "verificationNotExecuted")

    /// Whether an event of this type fires at most once per session (else on every action).
    package var firesOnce: Bool { trigger == .playback || trigger == .impression }

    /// Types that fire from playback, once per session.
    package static let playbackTypes: Set<Self> = [
        .impression, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete,
        .creativeView, .progress, .loaded, .breakStart, .breakEnd,
    ]

    /// Types that fire from player and user actions, never from time.
    package static let userActionTypes: Set<Self> = [
        .pause, .resume, .mute, .unmute, .rewind, .skip,
        .playerExpand, .playerCollapse, .clickTracking, .clickAbstractType,
    ]
}

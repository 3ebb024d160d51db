/// What a reporter tells the player (the heartbeat, and the media-analytics reporter's errors):
/// written as one JSON line on the control connection that sent the `load`, recorded in the event
/// history with its code, and streamed by `events follow`.
package enum PlayerNotification: Sendable, Equatable {
    /// Why the player must stop.
    package enum StopReason: String, Sendable, Equatable, CaseIterable {
        /// `max-allowed-failures` heartbeats of a live playback failed in a row.
        case heartbeatFailures
        /// The heartbeat service answered 401 or 403.
        case heartbeatRejected
        /// The concurrency endpoint answered 409 or 429: the account has no stream left.
        case concurrencyLimit
        /// A regular live event ended (`liveEndTime` passed, or the service said so).
        case liveEventEnd
    }

    /// What the service decided of a geo-restriction (its `action`, spelled as it sends it).
    package enum BlackoutAction: String, Sendable, Equatable, CaseIterable {
        case allow = "ALLOW"
        case deny = "DENY"
        case allowWithUpgrade = "ALLOW_WITH_UPGRADE"
    }

    case stopPlayback(StopReason)
    case blackout(BlackoutAction, blackoutURL: String?)
    /// The main programme began (overflow mode `before`): switch from the overflow stream to it.
    case liveProgramStart
    /// An overflow event's live part ended: its post-slate plays next.
    case liveEventEnd
    /// An overflow event's post-slate ended: leave the playback.
    case overflowEventEnd
    /// The media-analytics reporter refused the playback's input and tracks nothing more of it
    /// until the next `load` (Adobe's error state, which its SDKs report through `onError`).
    case analyticsError(reason: String)

    /// The `notification` key.
    package var name: String {
        switch self {
        case .stopPlayback: "stopPlayback"
        case .blackout: "blackout"
        case .liveProgramStart: "liveProgramStart"
        case .liveEventEnd: "liveEventEnd"
        case .overflowEventEnd: "overflowEventEnd"
        case .analyticsError: "analyticsError"
        }
    }

    /// What the player had best do; a stop says it with `action` instead. A blackout that lets the
    /// stream play suggests going on (`continue`), or offering the viewer the upgrade (`offerUpgrade`).
    package var suggestedAction: String? {
        switch self {
        case .stopPlayback: nil
        case .blackout(.deny, _): "playSlate"
        case .blackout(.allow, _): "continue"
        case .blackout(.allowWithUpgrade, _): "offerUpgrade"
        case .liveProgramStart: "switchToMain"
        case .liveEventEnd: "playPostSlate"
        case .overflowEventEnd: "exit"
        case .analyticsError: "fixAndReload"
        }
    }

    /// The members of the JSON line, `notification` first, in the order they are written.
    package var members: [(key: StaticString, value: String)] {
        var members: [(key: StaticString, value: String)] = [("notification", name)]
        switch self {
        case .stopPlayback(let reason):
            members += [("reason", reason.rawValue), ("action", "stop")]
        case .blackout(let action, let url):
            members.append(("action", action.rawValue))
            if let url { members.append(("blackoutUrl", url)) }
        case .analyticsError(let reason):
            members += [("reporter", ReporterName.mediaAnalytics.rawValue), ("reason", reason)]
        case .liveProgramStart, .liveEventEnd, .overflowEventEnd:
            break
        }
        if let suggestedAction { members.append(("suggestedAction", suggestedAction)) }
        return members
    }

    /// The JSON line the player reads, e.g. `{"notification":"stopPlayback","reason":"heartbeatFailures","action":"stop"}`.
    package var line: String {
        var json = JSONBytes()
        json.object { object in
            for (key, value) in members {
                object.member(key) { $0.string(value) }
            }
        }
        return String(decoding: json.bytes, as: UTF8.self)
    }
}

extension DaemonNotification {
    /// The history entry this notification becomes, or nil for the frequent ones the history
    /// leaves out (an unchanged metadata refresh, a tracking event becoming due: its delivery is
    /// recorded instead).
    package var historyEvent: HistoryEvent? {
        switch self {
        case .sessionStarting(let mediaURL):
            HistoryEvent(.sessionStarting, ["mediaUrl": mediaURL])
        case .sessionReady(let endpoints):
            HistoryEvent(.sessionReady, [
                "sessionId": endpoints.sessionID ?? "-", "manifestUrl": endpoints.manifestURL, "trackingUrl": endpoints.trackingURL,
            ])
        case .sessionFailed(let mediaURL, let reason):
            HistoryEvent(.sessionFailed, ["mediaUrl": mediaURL, "reason": reason])
        case .sessionEnded(let sessionID):
            HistoryEvent(.sessionEnded, ["sessionId": sessionID ?? "-"])
        case .metadataApplied(let adBreaks, let dataRange, let bytes):
            // A media-time range starts before 2000-01-01 as epoch milliseconds: its start says which it is.
            HistoryEvent(.metadataApplied, [
                "adBreaks": "\(adBreaks)", "dataRangeStart": MetadataDocument.timeline(ofRangeStarting: dataRange.start).format(dataRange.start),
                "dataRangeEnd": MetadataDocument.timeline(ofRangeStarting: dataRange.start).format(dataRange.end), "bytes": "\(bytes)",
            ])
        case .adBreaksDiscovered(let adBreakIDs):
            HistoryEvent(.adBreaksDiscovered, ["adBreaks": adBreakIDs.joined(separator: ",")])
        case .beaconsDue(let firing):
            Self.progress(firing)
        case .metadataUnchanged, .beaconRetrying:
            nil
        case .playerInformed(let information):
            information.historyEvent
        case .playerEventObserved(let event):
            event.historyEvent
        // Too frequent (ticks), or told by their own entries (a load by the session's).
        case .playbackLoaded, .playheadObserved, .userActionObserved:
            nil
        case .adLifecycle(let event):
            event.historyEvent
        case .interstitialStarted(let event):
            HistoryEvent(.interstitialStarted, ["id": event.id, "place": MetadataDocument.timeline(ofRangeStarting: event.place).format(event.place)])
        case .interstitialEnded(let event, let reason):
            HistoryEvent(reason == .error ? .interstitialFailed : .interstitialEnded, [
                "id": event.id, "reason": reason.rawValue, "assetsPlayed": "\(event.assets.filter(\.started).count)",
            ])
        case .playerNotified(let notification):
            HistoryEvent(notification.eventKind, Dictionary(uniqueKeysWithValues: notification.members.dropFirst().map { ("\($0.key)", $0.value) }))
        case .heartbeatFailing(let failures, let reason):
            HistoryEvent(.heartbeatFailing, ["failuresInARow": "\(failures)", "reason": reason])
        case .metadataFailed(let reason):
            HistoryEvent(.metadataFailed, ["reason": reason])
        case .lineRejected(let reason):
            HistoryEvent(.lineRejected, ["reason": reason])
        case .beaconsDelivered(let firing, let results, let state):
            Self.delivery(firing, results, state)
        case .drainStarted(let inFlight):
            HistoryEvent(.drainStarted, ["inFlight": "\(inFlight)"])
        case .drainTimedOut(let inFlight):
            HistoryEvent(.drainTimedOut, ["cancelled": "\(inFlight)"])
        }
    }

    /// The ad progress a firing shows: a quartile reached; nil for its other events.
    private static func progress(_ firing: Firing) -> HistoryEvent? {
        guard [TrackingEventType.firstQuartile, .midpoint, .thirdQuartile].contains(firing.event) else { return nil }
        return HistoryEvent(.adProgress, ["adBreak": firing.adBreakID, "ad": firing.adID, "event": firing.event.rawValue])
    }

    private static func delivery(_ firing: Firing, _ results: [RequestResult], _ state: ReportingState) -> HistoryEvent {
        var details = [
            "adBreak": firing.adBreakID, "ad": firing.adID, "event": firing.event.rawValue,
            "results": results.map(\.shortOutcome).joined(separator: ","),
        ]
        guard state == .failed else { return HistoryEvent(.beaconsDelivered, details) }
        let failures = results.filter { !$0.isSuccess }
        details["failed"] = "\(failures.count)/\(results.count)"
        if let first = failures.first {
            details["url"] = first.url
            details["reason"] = first.failureReason
        }
        return HistoryEvent(.beaconsFailed, details)
    }
}

extension PlayerNotification {
    /// The history entry's kind: the notification's own name.
    fileprivate var eventKind: EventKind {
        switch self {
        case .stopPlayback: .stopPlayback
        case .blackout: .blackout
        case .liveProgramStart: .liveProgramStart
        case .liveEventEnd: .liveEventEnd
        case .overflowEventEnd: .overflowEventEnd
        case .analyticsError: .analyticsError
        }
    }
}

extension RequestResult {
    /// The HTTP status, or what happened instead, in one word.
    fileprivate var shortOutcome: String {
        switch outcome {
        case .answered(let status): "\(status)"
        case .failed: "failed"
        case .refused: "refused"
        case .notSent(.quiet): "quiet"
        case .notSent(.beaconsDisabled): "beacons disabled"
        }
    }

    fileprivate var failureReason: String {
        switch outcome {
        case .answered(let status): "HTTP \(status)"
        case .failed(let error): error.description
        case .refused(let reason): reason
        case .notSent: "not sent"
        }
    }
}

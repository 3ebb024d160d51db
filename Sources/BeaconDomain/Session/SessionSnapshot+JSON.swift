extension SessionSnapshot {
    /// The snapshot as the JSON its `Codable` conformance reads back, written directly: with
    /// JSONEncoder, a snapshot of 1 000 tracking events took milliseconds on every metadata change.
    package func jsonBytes() -> [UInt8] {
        var json = JSONBytes()
        json.object { json in
            json.member("endpoints") { $0.write(endpoints) }
            json.member("adBreaks") { $0.array(adBreaks) { $0.write($1) } }
            if let dataRange {
                json.member("dataRange") { json in
                    json.object { json in
                        json.member("start") { $0.integer(dataRange.start) }
                        json.member("end") { $0.integer(dataRange.end) }
                    }
                }
            }
            json.member("played") { $0.array(played) { $0.array($1) { $0.integer($1) } } }
            if let playhead { json.member("playhead") { $0.integer(playhead) } }
            json.member("savedAt") { $0.integer(savedAt) }
            if let timeline { json.member("timeline") { $0.string(timeline.rawValue) } }
            if let programDateTimeOffset { json.member("programDateTimeOffset") { $0.integer(programDateTimeOffset) } }
            // Written only in interstitial mode, and a few events long: its conformance writes it.
            if let interstitials { json.member("interstitials") { $0.encoded(interstitials) } }
        }
        return json.bytes
    }
}

extension JSONBytes {
    fileprivate mutating func write(_ endpoints: SessionEndpoints) {
        object { json in
            json.member("mediaUrl") { $0.string(endpoints.mediaURL) }
            json.member("manifestUrl") { $0.string(endpoints.manifestURL) }
            json.member("trackingUrl") { $0.string(endpoints.trackingURL) }
            json.member("sessionId") { json in
                if let sessionID = endpoints.sessionID { json.string(sessionID) } else { json.null() }
            }
            if let dialect = endpoints.dialect { json.member("dialect") { $0.string(dialect.rawValue) } }
            // Only for an SGAI session: a snapshot without it (any older one) reads as no SGAI.
            if endpoints.isSGAI { json.member("sgai") { $0.bool(true) } }
        }
    }

    fileprivate mutating func write(_ adBreak: AdBreak) {
        entry(id: adBreak.id, startTime: adBreak.startTime, duration: adBreak.duration, holding: "ads", adBreak.ads) { $0.write($1) }
    }

    fileprivate mutating func write(_ ad: Ad) {
        entry(id: ad.id, startTime: ad.startTime, duration: ad.duration, holding: "trackingEvents", ad.trackingEvents) { $0.write($1) } more: {
            json in
            if !ad.attachedTracking.isEmpty { json.member("attachedTracking") { $0.array(ad.attachedTracking) { $0.write($1) } } }
            if let title = ad.title { json.member("title") { $0.string(title) } }
            if let creativeID = ad.creativeID { json.member("creativeId") { $0.string(creativeID) } }
            if let adSystem = ad.adSystem { json.member("adSystem") { $0.string(adSystem) } }
        }
    }

    /// An ad break or an ad: an id, a start time, a duration, what it holds and `more` members.
    private mutating func entry<Items: Sequence>(
        id: String, startTime: Milliseconds, duration: Milliseconds, holding name: StaticString, _ items: Items,
        _ item: (inout JSONBytes, Items.Element) -> Void, more: (inout JSONBytes) -> Void = { _ in }
    ) {
        object { json in
            json.member("id") { $0.string(id) }
            json.member("startTime") { $0.integer(startTime) }
            json.member("duration") { $0.integer(duration) }
            json.member(name) { $0.array(items, item) }
            more(&json)
        }
    }

    fileprivate mutating func write(_ tracking: AttachedTracking) {
        object { json in
            json.member("source") { $0.string(tracking.source.rawValue) }
            json.member("event") { $0.string(tracking.event.rawValue) }
            if let startTime = tracking.startTime { json.member("startTime") { $0.integer(startTime) } }
            json.member("signalingUrls") { $0.array(tracking.signalingURLs) { $0.string($1) } }
        }
    }

    fileprivate mutating func write(_ event: TrackingEvent) {
        object { json in
            json.member("event") { $0.string(event.event.rawValue) }
            json.member("startTime") { $0.integer(event.startTime) }
            json.member("duration") { $0.integer(event.duration) }
            json.member("signalingUrls") { $0.array(event.signalingURLs) { $0.string($1) } }
            json.member("reportingState") { $0.string(event.reportingState.rawValue) }
            if let heldBack = event.heldBack { json.member("heldBack") { $0.string(heldBack.rawValue) } }
            if let urls = event.currentSignalingURLs { json.member("currentSignalingUrls") { $0.array(urls) { $0.string($1) } } }
        }
    }
}

import BeaconDomain
import BeaconTesting
import BeaconRuntime

/// The `metadata` target: a metadata response body.
///
/// Properties: decoding is deterministic and a refusal has a reason; an accepted document keeps
/// what ``MetadataDocument/decode(_:)`` promises (every time within 1970...9999, every duration
/// non-negative and ending by then, every event idle) and survives its own wire format
/// unchanged. Merged into a session, it fires nothing before anything played; continuous play
/// from 2 s before its first ad break for a minute then fires exactly the playback events whose
/// window meets that minute, each once, and the verificationNotExecuted of each ad whose impression
/// fired (the ``SessionProbe`` guarantees hold all along); playing
/// it again, refreshing with the same document and a click fire no playback event again.
/// Whatever the fast reader of the metadata's shape reads, JSONDecoder reads to the same document.
enum MetadataProperties {
    /// How much program time the playback check covers, tick by tick.
    static let playedSpan: Milliseconds = 60_000
    static let tickInterval: Milliseconds = 1_000

    static func check(_ input: [UInt8]) throws(PropertyViolation) -> Bool {
        if let parsed = MetadataParser.parse(input) {
            try checkAgainstJSONDecoder(parsed, input)
        }
        let document: MetadataDocument
        do {
            document = try MetadataDocument.decode(input)
        } catch {
            try PropertyViolation.require(
                Result { () throws(MetadataError) in try MetadataDocument.decode(input) } == .failure(error),
                "decoding is deterministic", "refused with '\(error.reason.prefix(120))', then not the same way")
            try PropertyViolation.require(!error.reason.isEmpty, "a refused document has a reason", "empty reason")
            return false
        }
        try PropertyViolation.require(
            (try? MetadataDocument.decode(input)) == document, "decoding is deterministic", "accepted, then not the same document")
        try checkDecoded(document)
        let reencoded = Array(document.encodedJSON().utf8)
        try PropertyViolation.require(
            (try? MetadataDocument.decode(reencoded)) == document, "an accepted document survives its wire format",
            "re-encoded as \(String(decoding: reencoded.prefix(300), as: UTF8.self))")
        try play(document)
        return true
    }

    /// The fast reader reads a strict subset of what JSONDecoder accepts, to the same document.
    private static func checkAgainstJSONDecoder(_ parsed: MetadataDocument, _ input: [UInt8]) throws(PropertyViolation) {
        let property = "what the fast reader reads, JSONDecoder reads the same"
        let reference: MetadataDocument
        do {
            reference = try MetadataDocument.decodeWithJSONDecoder(input)
        } catch {
            throw PropertyViolation(property: property, details: "JSONDecoder refused it: '\(error.reason.prefix(120))'")
        }
        try PropertyViolation.require(
            reference == parsed, property, "JSONDecoder read \("\(reference)".prefix(300)), the fast reader \("\(parsed)".prefix(300))")
    }

    /// What `decode` guarantees of an accepted document.
    private static func checkDecoded(_ document: MetadataDocument) throws(PropertyViolation) {
        let times = 0...MetadataDocument.latestTime
        try PropertyViolation.require(
            times.contains(document.dataRange.start) && times.contains(document.dataRange.end),
            "an accepted data range lies within 1970...9999", "\(document.dataRange)")
        func checkSpan(_ name: @autoclosure () -> String, start: Milliseconds, duration: Milliseconds) throws(PropertyViolation) {
            try PropertyViolation.require(
                times.contains(start) && duration >= 0 && duration <= MetadataDocument.latestTime - start,
                "an accepted start lies within 1970...9999 and its non-negative duration ends by then",
                "\(name()) starts at \(start) for \(duration)")
        }
        for adBreak in document.adBreaks {
            try checkSpan("ad break \(adBreak.id)", start: adBreak.startTime, duration: adBreak.duration)
            for ad in adBreak.ads {
                try checkSpan("ad \(ad.id)", start: ad.startTime, duration: ad.duration)
                for event in ad.trackingEvents {
                    try checkSpan("\(event.event) of ad \(ad.id)", start: event.startTime, duration: event.duration)
                    try PropertyViolation.require(
                        event.reportingState == .idle, "a decoded event is idle", "\(event.event) of ad \(ad.id) is \(event.reportingState)")
                }
            }
        }
    }

    private static func play(_ document: MetadataDocument) throws(PropertyViolation) {
        var probe = SessionProbe()
        try probe.apply(document)
        try PropertyViolation.require(
            probe.firedOnce.isEmpty, "metadata fires nothing before anything played", "fired \(probe.firedOnce.count) events")
        guard let firstBreak = probe.session.schedule.adBreaks.first else { return }

        let from = max(0, firstBreak.startTime - 2_000)
        let to = min(from + playedSpan, MetadataDocument.latestTime)
        var clock: Milliseconds = 1_700_000_000_000
        func playThrough() throws(PropertyViolation) {
            var playhead = from
            while true {
                try probe.observe(PlayheadTick(playhead: playhead, timeline: document.timeline), arrivalTime: clock)
                if playhead == to { break }
                playhead = min(playhead + tickInterval, to)
                clock += tickInterval
            }
        }
        try playThrough()

        let played = from...to
        let due = Set(
            probe.session.schedule.adBreaks.flatMap { adBreak in
                adBreak.ads.indices.flatMap { adIndex in
                    let events = adBreak.ads[adIndex].trackingEvents
                    // Only what the metadata does not hold back (a withdrawn ad, an event beyond its ad);
                    // a verificationNotExecuted goes with its ad's impression.
                    let impressed = events.contains { $0.event == .impression && $0.heldBack == nil && $0.window.overlaps(played) }
                    return events.indices.compactMap { eventIndex -> EventReference? in
                        let event = events[eventIndex]
                        let due =
                            event.event.trigger == .playback
                            ? event.heldBack == nil && event.window.overlaps(played) : event.event.trigger == .impression && impressed
                        return due ? EventReference(adBreakID: adBreak.id, adIndex: adIndex, eventIndex: eventIndex) : nil
                    }
                }
            })
        try PropertyViolation.require(
            probe.firedOnce == due, "playing a stretch fires exactly the playback events whose window meets it",
            "played \(played): \(probe.firedOnce.subtracting(due).count) fired unduly, \(due.subtracting(probe.firedOnce).count) not fired")

        // A seek back over the same stretch, the same document again and a click: nothing fires twice.
        clock += 60_000
        try probe.observe(.seekStart, arrivalTime: clock)
        try probe.observe(.seekEnd, arrivalTime: clock)
        try playThrough()
        try probe.apply(document)
        try probe.observe(.click)
    }
}

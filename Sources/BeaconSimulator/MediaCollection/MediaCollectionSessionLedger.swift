import BeaconDomain

/// The rules a session's events follow in order, which Adobe's back end cannot check (it judges
/// each event alone) but relies on: `ts` strictly increases so that it can restore the order,
/// ads are bookended by their ad break or are ignored, nothing follows the session's end, the
/// playhead stays inside the content (VOD) or the day (live: seconds since midnight UTC). The
/// double holds a client to them: a broken rule is a violation.
package struct MediaCollectionSessionLedger: Sendable, Equatable {
    /// A broken rule: the answer's status and why.
    package struct Violation: Error, Sendable, Equatable, CustomStringConvertible {
        package var status: Int
        package var description: String

        package init(status: Int, description: String) {
            self.status = status
            self.description = description
        }
    }

    /// The largest playhead the content type allows: the content's length for VOD, a day for live
    /// and linear streams, none for another type.
    package let playheadLimit: Double?
    /// The `ts` of the last event taken.
    package private(set) var lastTS: Int64
    /// The event that ended the session, once one did.
    package private(set) var endedBy: MediaCollectionEventType?
    package private(set) var inAdBreak = false
    /// The `media.ad.id` of the ad started and not yet completed or skipped.
    package private(set) var openAd: String?
    /// The `media.chapter.index` of the chapter started and not yet completed or skipped.
    package private(set) var openChapter: Int64?
    /// The player states started and not yet ended.
    package private(set) var states: Set<String> = []

    /// A day in seconds: a live stream's playhead is the time of day.
    package static let day: Double = 86_400

    /// Epoch milliseconds before 2001-09-09 are taken for seconds or a monotonic clock sent by mistake.
    package static let earliestTS: Int64 = 1_000_000_000_000

    /// A ledger opened by a valid `sessionStart`, or the rule it breaks.
    package static func opening(_ start: MediaCollectionEvent) -> Result<Self, Violation> {
        guard start.ts >= earliestTS else { return .failure(notEpoch(start.ts)) }
        let length = start.params["media.length"]?.number ?? 0
        // Adobe computes no progress for a length of 0 or less; a live stream of unknown length says a day.
        guard length > 0 else { return .failure(Violation(status: 400, description: "media.length \(length) is not positive (a live stream says \(Int(day)))")) }
        let limit: Double? =
            switch start.params["media.contentType"]?.text?.lowercased() {
            case "vod": length
            case "live", "linear": day
            default: nil
            }
        let ledger = Self(lastTS: start.ts, playheadLimit: limit)
        if let violation = ledger.playheadViolation(start) { return .failure(violation) }
        return .success(ledger)
    }

    private init(lastTS: Int64, playheadLimit: Double?) {
        self.lastTS = lastTS
        self.playheadLimit = playheadLimit
    }

    private func playheadViolation(_ event: MediaCollectionEvent) -> Violation? {
        let type = event.type.rawValue
        if event.playhead < 0 { return Violation(status: 400, description: "\(type) has a negative playhead \(event.playhead)") }
        guard let playheadLimit, event.playhead > playheadLimit else { return nil }
        return Violation(status: 400, description: "\(type) has the playhead \(event.playhead), past \(playheadLimit)")
    }

    /// Takes the session's next event, or says which rule it breaks and changes nothing.
    package mutating func take(_ event: MediaCollectionEvent) throws(Violation) {
        if let endedBy { throw Violation(status: 410, description: "the session ended with \(endedBy.rawValue): \(event.type.rawValue) came after") }
        guard event.ts >= Self.earliestTS else { throw Self.notEpoch(event.ts) }
        guard event.ts > lastTS else {
            throw Violation(status: 400, description: "\(event.type.rawValue) has ts \(event.ts), not after the previous event's \(lastTS)")
        }
        if let violation = playheadViolation(event) { throw violation }
        var next = self
        try next.apply(event)
        next.lastTS = event.ts
        self = next
    }

    private mutating func apply(_ event: MediaCollectionEvent) throws(Violation) {
        let type = event.type.rawValue
        switch event.type {
        case .adBreakStart:
            guard !inAdBreak else { throw refused("\(type) inside an ad break not completed") }
            inAdBreak = true
        case .adStart:
            guard inAdBreak else { throw refused("\(type) outside an ad break") }
            if let openAd { throw refused("\(type) while the ad \(openAd) is neither completed nor skipped") }
            openAd = event.params["media.ad.id"]?.text ?? ""
        case .adComplete, .adSkip:
            guard openAd != nil else { throw refused("\(type) without an ad started") }
            openAd = nil
        case .adBreakComplete:
            guard inAdBreak else { throw refused("\(type) without an ad break started") }
            if let openAd { throw refused("\(type) while the ad \(openAd) is neither completed nor skipped") }
            inAdBreak = false
        case .chapterStart:
            if let openChapter { throw refused("\(type) while the chapter \(openChapter) is neither completed nor skipped") }
            openChapter = event.params["media.chapter.index"]?.integer ?? 0
        case .chapterComplete, .chapterSkip:
            guard openChapter != nil else { throw refused("\(type) without a chapter started") }
            openChapter = nil
        case .stateStart, .stateEnd:
            let name = event.params["media.state.name"]?.text ?? ""
            let started = event.type == .stateStart
            guard states.contains(name) != started else {
                throw refused(started ? "\(type) of the state \(name), already started" : "\(type) of the state \(name), not started")
            }
            if started { states.insert(name) } else { states.remove(name) }
        case .sessionComplete, .sessionEnd:
            endedBy = event.type
        case .sessionStart, .play, .ping, .bufferStart, .pauseStart, .bitrateChange, .error:
            break
        }
    }

    private func refused(_ reason: String) -> Violation { Violation(status: 400, description: reason) }

    private static func notEpoch(_ ts: Int64) -> Violation {
        Violation(status: 400, description: "ts \(ts) is not epoch milliseconds")
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of AWS Elemental MediaTailor's client-side tracking document, read into the model:
/// an avail is an ad break, its ads are ads, their `trackingEvents` tracking events whose
/// `beaconURLs` are the signaling URLs. Times are seconds from the start of the session, so the
/// document is on the media-time timeline (milliseconds = seconds * 1000, rounded).
///
/// An avail's own tracking (`adBreakTrackingEvents`: `breakStart`, `breakEnd`) goes on an ad of its
/// own spanning the avail, ``adBreakTrackingAdID``, placed first: matching, the journal, status and
/// metrics handle it as any ad. An event without a time fires at the avail's start, `breakEnd` at its end.
package struct MediaTailorDocument: Sendable, Equatable {
    /// The avails as ad breaks; ``MetadataDocument/programDateTimeOffset`` is set when a
    /// `*ProgramDateTime` field places the document on program date time.
    package var metadata: MetadataDocument
    /// Where the next page starts, when the service says there is one.
    package var nextToken: String?
    /// How many non-linear avails (overlays) the page lists: counted, never fired, as the daemon
    /// shows no overlay.
    package var nonLinearAvails: Int

    package init(metadata: MetadataDocument, nextToken: String? = nil, nonLinearAvails: Int = 0) {
        self.metadata = metadata
        self.nextToken = nextToken
        self.nonLinearAvails = nonLinearAvails
    }

    /// The id of the ad that carries an avail's `adBreakTrackingEvents`.
    package static let adBreakTrackingAdID = "adBreakTracking"

    /// Whether a tracking document is MediaTailor's: it has `avails` and no `dataRange`, which every
    /// Harmonic document has. Only the bytes are looked at, so a refresh does not decode twice.
    package static func isMediaTailor(_ body: some Collection<UInt8>) -> Bool {
        !contains(Array("\"dataRange\"".utf8), in: body) && contains(Array("\"avails\"".utf8), in: body)
    }

    private static func contains(_ needle: [UInt8], in body: some Collection<UInt8>) -> Bool {
        let bytes = Array(body)
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] && bytes[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// Decodes one page, liberally: unknown fields are ignored, a time may be a number of seconds
    /// or an ISO 8601 duration, what is attached to an ad and what describes it (`adTitle`,
    /// `creativeId`, `adSystem`) are kept when they can be read. A body that
    /// is not JSON, a time that is neither form, a negative time or duration, a duration over a day
    /// or a time that is a date rather than an offset rejects the page whole, naming where.
    package static func decode(_ body: some Collection<UInt8>) throws(MetadataError) -> MediaTailorDocument {
        let wire: Wire.Document
        do {
            wire = try JSONDecoder().decode(Wire.Document.self, from: Data(body))
        } catch let error as DecodingError {
            throw MetadataError(reason: describe(error))
        } catch {
            throw MetadataError(reason: "not JSON")
        }
        return try wire.document()
    }

    /// Pages merged in order into one document: an avail repeated on a later page is the later
    /// description; the program-date-time offset is the first page's that has one.
    package static func merged(_ pages: [MediaTailorDocument]) -> MediaTailorDocument {
        var adBreaks: [AdBreak] = []
        var offset: Int64?
        for page in pages {
            for adBreak in page.metadata.adBreaks {
                if let index = adBreaks.firstIndex(where: { $0.id == adBreak.id }) { adBreaks[index] = adBreak } else { adBreaks.append(adBreak) }
            }
            offset = offset ?? page.metadata.programDateTimeOffset
        }
        adBreaks.sort { $0.startTime < $1.startTime }
        return MediaTailorDocument(
            metadata: MetadataDocument(dataRange: span(of: adBreaks), adBreaks: adBreaks, timeline: .mediaTime, programDateTimeOffset: offset),
            nextToken: pages.last?.nextToken, nonLinearAvails: pages.reduce(0) { $0 + $1.nonLinearAvails })
    }

    /// The data range of a MediaTailor document, which gives none: from its first avail's start to
    /// the end of the avail that ends last (0...0 without avails). An ad missing from a later
    /// document within that span was withdrawn; outside it, the window moved on.
    static func span(of adBreaks: [AdBreak]) -> DataRange {
        guard let start = adBreaks.map(\.startTime).min(), let end = adBreaks.map(\.endTime).max() else { return DataRange(start: 0, end: 0) }
        return DataRange(start: start, end: end)
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing '\(key.stringValue)'" + (context.codingPath.isEmpty ? "" : " in \(path(context))")
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not a JSON object" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "undecodable"
        }
    }

    /// The tracking document's wire shape.
    fileprivate enum Wire {
        struct Document: Decodable {
            var avails: [Avail]?
            var nonLinearAvails: [Ignored]?
            var nextToken: String?

            func document() throws(MetadataError) -> MediaTailorDocument {
                var adBreaks: [AdBreak] = []
                var offset: Int64?
                for (index, avail) in (avails ?? []).enumerated() {
                    let (adBreak, availOffset) = try avail.adBreak(index: index)
                    adBreaks.append(adBreak)
                    offset = offset ?? availOffset
                }
                return MediaTailorDocument(
                    metadata: MetadataDocument(dataRange: span(of: adBreaks), adBreaks: adBreaks, timeline: .mediaTime, programDateTimeOffset: offset),
                    nextToken: nextToken.flatMap { $0.isEmpty ? nil : $0 }, nonLinearAvails: nonLinearAvails?.count ?? 0)
            }
        }

        /// Anything: a value only counted.
        struct Ignored: Decodable {
            init(from decoder: any Decoder) {}
        }

        /// A time: `startTimeInSeconds` (a number, or text in either form), else `startTime`.
        struct Seconds: Decodable {
            var milliseconds: Milliseconds?

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() {
                    milliseconds = nil
                } else if let text = try? container.decode(String.self) {
                    guard let value = MediaTailorTime.milliseconds(fromDuration: text) else {
                        throw DecodingError.dataCorrupted(
                            .init(codingPath: decoder.codingPath, debugDescription: "'\(text.prefix(40))' is no number of seconds or ISO 8601 duration"))
                    }
                    milliseconds = value
                } else {
                    let seconds = try container.decode(Double.self)
                    guard let value = MediaTailorTime.milliseconds(fromSeconds: seconds) else {
                        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(seconds) s is out of range"))
                    }
                    milliseconds = value
                }
            }
        }

        /// The time fields every level has: in seconds, as ISO 8601, and on program date time.
        struct Timing {
            var start: Milliseconds?
            var duration: Milliseconds?
            var programDateTime: Milliseconds?

            /// Reads a level's times: the number in seconds first, the ISO 8601 text when it is absent.
            init<Key: CodingKey>(
                _ container: KeyedDecodingContainer<Key>, start: (seconds: Key, iso: Key), duration: (seconds: Key, iso: Key), programDateTime: Key
            ) throws {
                self.start =
                    try container.decodeIfPresent(Seconds.self, forKey: start.seconds)?.milliseconds
                    ?? container.decodeIfPresent(Seconds.self, forKey: start.iso)?.milliseconds
                self.duration =
                    try container.decodeIfPresent(Seconds.self, forKey: duration.seconds)?.milliseconds
                    ?? container.decodeIfPresent(Seconds.self, forKey: duration.iso)?.milliseconds
                // A program date time that cannot be read places nothing: the media times still hold.
                self.programDateTime = ((try? container.decodeIfPresent(String.self, forKey: programDateTime)) ?? nil)
                    .flatMap(MediaTailorTime.epochMilliseconds(fromDate:))
            }
        }

        struct Avail: Decodable {
            var availID: MetadataIdentifier?
            var timing: Timing
            var adBreakTrackingEvents: [Event]?
            var ads: [AdWire]?

            enum CodingKeys: String, CodingKey {
                case availID = "availId", startTimeInSeconds, startTime, durationInSeconds, duration, availProgramDateTime, adBreakTrackingEvents, ads
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                availID = try container.decodeIfPresent(MetadataIdentifier.self, forKey: .availID)
                timing = try Timing(
                    container, start: (.startTimeInSeconds, .startTime), duration: (.durationInSeconds, .duration),
                    programDateTime: .availProgramDateTime)
                adBreakTrackingEvents = try container.decodeIfPresent([Event].self, forKey: .adBreakTrackingEvents)
                ads = try container.decodeIfPresent([AdWire].self, forKey: .ads)
            }

            func adBreak(index: Int) throws(MetadataError) -> (AdBreak, offset: Int64?) {
                let id = availID.map(\.text).flatMap { $0.isEmpty ? nil : $0 } ?? "#\(index + 1)"
                let start = timing.start ?? 0
                let duration = timing.duration ?? 0
                try check(MetadataRejection.place(adBreak: id), start: start, duration: duration)
                var offset = timing.programDateTime.map { $0 - start }
                var ads: [Ad] = []
                if let breakEvents = adBreakTrackingEvents, !breakEvents.isEmpty {
                    let events = try breakEvents.map { event throws(MetadataError) in
                        let eventStart = event.timing.start ?? (TrackingEventType(named: event.eventType) == .breakEnd ? start + duration : start)
                        return try event.trackingEvent(
                            at: eventStart, place: MetadataRejection.place(adBreak: id, ad: MediaTailorDocument.adBreakTrackingAdID, event: event.eventType))
                    }
                    ads.append(Ad(id: MediaTailorDocument.adBreakTrackingAdID, startTime: start, duration: duration, trackingEvents: events))
                }
                for (adIndex, wire) in (self.ads ?? []).enumerated() {
                    let (ad, adOffset) = try wire.ad(adBreak: id, index: adIndex, availStart: start)
                    ads.append(ad)
                    offset = offset ?? adOffset
                }
                return (AdBreak(id: id, startTime: start, duration: duration, ads: ads), offset)
            }
        }

        struct AdWire: Decodable {
            var adID: MetadataIdentifier?
            var timing: Timing
            var trackingEvents: [Event]?
            var adVerifications: [Lenient<Attached>]?
            var companionAds: [Lenient<Attached>]?
            var title: String?
            var creativeID: String?
            var adSystem: String?

            enum CodingKeys: String, CodingKey {
                case adID = "adId", startTimeInSeconds, startTime, durationInSeconds, duration, adProgramDateTime, trackingEvents, adVerifications, 
                    companionAds, title = "adTitle", creativeID = "creativeId", adSystem
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                adID = try container.decodeIfPresent(MetadataIdentifier.self, forKey: .adID)
                timing = try Timing(
                    container, start: (.startTimeInSeconds, .startTime), duration: (.durationInSeconds, .duration), programDateTime: .adProgramDateTime)
                trackingEvents = try container.decodeIfPresent([Event].self, forKey: .trackingEvents)
                // Listed only: a part that cannot be read is left out rather than refusing the page.
                adVerifications = (try? container.decodeIfPresent([Lenient<Attached>].self, forKey: .adVerifications)) ?? nil
                companionAds = (try? container.decodeIfPresent([Lenient<Attached>].self, forKey: .companionAds)) ?? nil
                title = container.descriptiveText(forKey: .title)
                creativeID = container.descriptiveText(forKey: .creativeID)
                adSystem = container.descriptiveText(forKey: .adSystem)
            }

            func ad(adBreak: String, index: Int, availStart: Milliseconds) throws(MetadataError) -> (Ad, offset: Int64?) {
                let id = adID.map(\.text).flatMap { $0.isEmpty ? nil : $0 } ?? "#\(index + 1)"
                let start = timing.start ?? availStart
                let duration = timing.duration ?? 0
                try check(MetadataRejection.place(adBreak: adBreak, ad: id), start: start, duration: duration)
                var offset = timing.programDateTime.map { $0 - start }
                var events: [TrackingEvent] = []
                for event in trackingEvents ?? [] {
                    events.append(try event.trackingEvent(at: event.timing.start ?? start, place: MetadataRejection.place(adBreak: adBreak, ad: id, event: event.eventType)))
                    offset = offset ?? event.timing.programDateTime.map { $0 - (event.timing.start ?? start) }
                }
                var attached: [AttachedTracking] = []
                for case let tracking? in (companionAds ?? []).map(\.value) { attached += tracking.tracking(from: .companion) }
                for case let verification? in (adVerifications ?? []).map(\.value) {
                    for tracking in verification.tracking(from: .verification) {
                        guard tracking.event == .verificationNotExecuted else {
                            attached.append(tracking)
                            continue
                        }
                        // Owed by a player that runs no verification script: sent with the impression.
                        events.append(TrackingEvent(event: tracking.event, startTime: start, duration: 0, signalingURLs: tracking.signalingURLs))
                    }
                }
                let ad = Ad(
                    id: id, startTime: start, duration: duration, trackingEvents: events, attachedTracking: attached, title: title,
                    creativeID: creativeID, adSystem: adSystem)
                return (ad, offset)
            }
        }

        struct Event: Decodable {
            var eventType: String
            var beaconURLs: [String]?
            var timing: Timing

            enum CodingKeys: String, CodingKey {
                case eventType, beaconURLs = "beaconUrls", startTimeInSeconds, startTime, durationInSeconds, duration, eventProgramDateTime
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                eventType = try container.decode(String.self, forKey: .eventType)
                beaconURLs = try container.decodeIfPresent([String].self, forKey: .beaconURLs)
                timing = try Timing(
                    container, start: (.startTimeInSeconds, .startTime), duration: (.durationInSeconds, .duration),
                    programDateTime: .eventProgramDateTime)
            }

            func trackingEvent(at start: Milliseconds, place: @autoclosure () -> String) throws(MetadataError) -> TrackingEvent {
                let duration = timing.duration ?? 0
                try check(place(), start: start, duration: duration)
                return TrackingEvent(event: TrackingEventType(named: eventType), startTime: start, duration: duration, signalingURLs: beaconURLs ?? [])
            }
        }

        /// A companion ad or an ad verification: its `trackingEvents` of `event` and `uri`.
        struct Attached: Decodable {
            var trackingEvents: [Lenient<AttachedEvent>]?

            func tracking(from source: AttachedTracking.Source) -> [AttachedTracking] {
                (trackingEvents ?? []).compactMap(\.value).map {
                    AttachedTracking(source: source, event: TrackingEventType(named: $0.event), startTime: nil, signalingURLs: $0.uri.map { [$0] } ?? [])
                }
            }
        }

        struct AttachedEvent: Decodable {
            var event: String
            var uri: String?
        }

        /// A value read if it can be, else nil: one unreadable entry of a list does not lose the others.
        struct Lenient<Value: Decodable>: Decodable {
            var value: Value?

            init(from decoder: any Decoder) {
                value = try? Value(from: decoder)
            }
        }

        /// A media time is an offset from the start of the session: one that reads as a date since
        /// 2000 is a broken service, and so is a duration over a day.
        static func check(_ place: @autoclosure () -> String, start: Milliseconds, duration: Milliseconds) throws(MetadataError) {
            guard start < MetadataDocument.validTimes.lowerBound else {
                throw MetadataError(reason: "\(place()): start \(start) ms is a date, not a time from the start of the session")
            }
            guard duration <= MetadataDocument.longestDuration else {
                throw MetadataError(reason: "\(place()): duration \(duration) ms is over a day")
            }
        }
    }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One ad-tracking metadata response: the data range it covers and its ad breaks.
public struct MetadataDocument: Sendable, Equatable {
    public var dataRange: DataRange
    public var adBreaks: [AdBreak]
    /// What the document's times are counted on.
    package var timeline: Timeline
    /// Program date time minus media time, when a media-time document also places itself on
    /// program date time (MediaTailor's `*ProgramDateTime`): ticks of either form can then be mapped.
    package var programDateTimeOffset: Milliseconds?

    public init(dataRange: DataRange, adBreaks: [AdBreak], timeline: Timeline = .programDateTime, programDateTimeOffset: Milliseconds? = nil) {
        self.dataRange = dataRange
        self.adBreaks = adBreaks
        self.timeline = timeline
        self.programDateTimeOffset = programDateTimeOffset
    }

    /// The latest epoch millisecond beaconctl reads anywhere: the end of year 9999, the last that
    /// ISO-8601's four-digit years can write.
    package static let latestTime: Milliseconds = 253_402_300_799_999

    /// The times a document may name, 2000-01-01T00:00:00Z to 2100-01-01T00:00:00Z: a program date
    /// time outside them is a broken server, not a stream.
    package static let validTimes: ClosedRange<Milliseconds> = 946_684_800_000...4_102_444_800_000

    /// The times a media-time document may name: its offsets from the start of the stream, up to
    /// 366 days (a VOD asset, or a live session running for a year). Far below ``validTimes``, so
    /// no time is read as both.
    package static let validMediaTimes: ClosedRange<Milliseconds> = 0...31_622_400_000
    static let validMediaTimesText = "0..366 days"

    /// The timeline a Harmonic document is on, from its data range: one starting before
    /// ``validTimes`` (before 2000-01-01 as epoch milliseconds) counts media offsets, not dates.
    package static func timeline(ofRangeStarting start: Milliseconds) -> Timeline {
        start < validTimes.lowerBound ? .mediaTime : .programDateTime
    }

    /// The longest duration a document may give an ad break, an ad or a tracking event: a day.
    package static let longestDuration: Milliseconds = 86_400_000

    /// Decodes a metadata body, liberally: unknown fields are ignored, a tracking event without a
    /// duration lasts 0, fractional milliseconds are rounded, integer ids are read as their
    /// decimal text, event types are matched whatever their letter case, and what is attached to an
    /// ad (companion ads, icons, verifications) and what describes it (`title`, `creativeId`,
    /// `adSystem`) are kept when they can be read. Only what cannot be
    /// used rejects the body whole: not JSON, no `dataRange`, a wrong type where a value is needed
    /// (a string or `null` where milliseconds belong), a time outside those of its timeline
    /// (``validTimes`` for program date time, ``validMediaTimes`` for media time), a negative
    /// duration or one over ``longestDuration``; the reason names the ad break, ad and tracking
    /// event at fault, and the caller keeps its previous state.
    ///
    /// A reader of exactly the metadata's shape (`MetadataParser`) reads the common body several
    /// times faster than JSONDecoder, which alone would spend 40 ms on a live window of a megabyte.
    /// It reads a strict subset of what JSONDecoder accepts, to the same document; whatever it is
    /// not sure of goes to JSONDecoder, which stays the authority on what is accepted and why not.
    /// A data range starting before 2000-01-01 puts the document on media time (see ``timeline(ofRangeStarting:)``).
    public static func decode(_ body: some Collection<UInt8>) throws(MetadataError) -> MetadataDocument {
        var document: MetadataDocument
        if let parsed = MetadataParser.parse(body) {
            document = parsed
        } else {
            document = try decodeWithJSONDecoder(body)
        }
        document.timeline = timeline(ofRangeStarting: document.dataRange.start)
        try document.validate()
        return document
    }

    /// The document as JSONDecoder reads `body`, before the checks of times and durations that
    /// ``decode(_:)`` adds: the reference the fast reader must agree with wherever it reads a body.
    package static func decodeWithJSONDecoder(_ body: some Collection<UInt8>) throws(MetadataError) -> MetadataDocument {
        let data = Data(body)
        let wire: Wire.Document
        do {
            wire = try JSONDecoder().decode(Wire.Document.self, from: data)
        } catch let error as DecodingError {
            throw MetadataError(reason: MetadataRejection.describe(error, in: data))
        } catch {
            throw MetadataError(reason: "not JSON")
        }
        return wire.document
    }

    /// The document in the metadata's wire format, as an ad-tracking service would serve it.
    public func encodedJSON() -> String {
        JSONLine.encode(Wire.Document(self))
    }

    /// Checks every time against those of the document's timeline and every duration against ``longestDuration``.
    func validate() throws(MetadataError) {
        func check(_ place: @autoclosure () -> String, time: Milliseconds, named field: String) throws(MetadataError) {
            switch timeline {
            case .programDateTime where !Self.validTimes.contains(time):
                throw MetadataError(
                    reason: "\(place()): \(field) \(time) (\(UTCTime.format(time))) is outside 2000-01-01..2100-01-01")
            case .mediaTime where !Self.validMediaTimes.contains(time):
                throw MetadataError(
                    reason: "\(place()): \(field) \(time) is outside \(Self.validMediaTimesText) of media time"
                        + (place() == "dataRange" ? " and not a program date time (2000-01-01..2100-01-01)" : ""))
            default: return
            }
        }
        // The place is only named for a rejection, not for every valid event.
        func check(_ place: @autoclosure () -> String, start: Milliseconds, duration: Milliseconds) throws(MetadataError) {
            try check(place(), time: start, named: "startTime")
            guard (0...Self.longestDuration).contains(duration) else {
                throw MetadataError(reason: "\(place()): duration \(duration) ms is \(duration < 0 ? "negative" : "over a day")")
            }
        }
        try check("dataRange", time: dataRange.start, named: "start")
        try check("dataRange", time: dataRange.end, named: "end")
        guard dataRange.start <= dataRange.end else {
            throw MetadataError(
                reason: "dataRange: end \(timeline.format(dataRange.end)) is before start \(timeline.format(dataRange.start))")
        }
        for adBreak in adBreaks {
            try check(MetadataRejection.place(adBreak: adBreak.id), start: adBreak.startTime, duration: adBreak.duration)
            for ad in adBreak.ads {
                try check(MetadataRejection.place(adBreak: adBreak.id, ad: ad.id), start: ad.startTime, duration: ad.duration)
                for event in ad.trackingEvents {
                    try check(
                        MetadataRejection.place(adBreak: adBreak.id, ad: ad.id, event: event.event.rawValue), start: event.startTime,
                        duration: event.duration)
                }
            }
        }
    }

    /// The metadata's wire shape; optional lists default to empty.
    private enum Wire {
        struct Document: Codable {
            var dataRange: RangeWire
            var adBreaks: [AdBreakWire]?

            init(_ document: MetadataDocument) {
                dataRange = RangeWire(start: MetadataTime(document.dataRange.start), end: MetadataTime(document.dataRange.end))
                adBreaks = document.adBreaks.map(AdBreakWire.init)
            }

            var document: MetadataDocument {
                MetadataDocument(
                    dataRange: DataRange(start: dataRange.start.milliseconds, end: dataRange.end.milliseconds),
                    adBreaks: (adBreaks ?? []).map(\.adBreak))
            }
        }
        struct RangeWire: Codable {
            var start: MetadataTime
            var end: MetadataTime
        }
        struct AdBreakWire: Codable {
            var id: MetadataIdentifier
            var startTime: MetadataTime
            var duration: MetadataTime
            var ads: [AdWire]?

            init(_ adBreak: AdBreak) {
                id = MetadataIdentifier(adBreak.id)
                startTime = MetadataTime(adBreak.startTime)
                duration = MetadataTime(adBreak.duration)
                ads = adBreak.ads.map(AdWire.init)
            }

            var adBreak: AdBreak {
                AdBreak(id: id.text, startTime: startTime.milliseconds, duration: duration.milliseconds, ads: (ads ?? []).map(\.ad))
            }
        }
        struct AdWire: Codable {
            var id: MetadataIdentifier
            var startTime: MetadataTime
            var duration: MetadataTime
            var trackingEvents: [EventWire]?
            var companionAds: CompanionAdsWire?
            var icons: [IconWire]?
            var adVerifications: [VerificationWire]?
            var title: String?
            var creativeId: String?
            var adSystem: String?

            init(_ ad: Ad) {
                id = MetadataIdentifier(ad.id)
                startTime = MetadataTime(ad.startTime)
                duration = MetadataTime(ad.duration)
                title = ad.title
                creativeId = ad.creativeID
                adSystem = ad.adSystem
                trackingEvents = ad.trackingEvents.map(EventWire.init)
                let attached = Dictionary(grouping: ad.attachedTracking, by: \.source)
                companionAds = attached[.companion].map { CompanionAdsWire(companion: [CompanionWire(trackingEvents: $0.map(AttachedEventWire.init))]) }
                icons = attached[.icon].map { tracking in
                    tracking.map { tracking in
                        tracking.event == AttachedTracking.iconView
                            ? IconWire(iconViewTracking: tracking.signalingURLs)
                            : IconWire(iconClicks: IconClicksWire(iconClickTracking: tracking.signalingURLs.map(URIWire.init)))
                    }
                }
                adVerifications = attached[.verification].map { [VerificationWire(trackingEvents: $0.map(AttachedEventWire.init))] }
            }

            /// What is attached to an ad is read leniently: the daemon only lists it, so a part it
            /// cannot read is left out rather than refusing the document.
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                id = try container.decode(MetadataIdentifier.self, forKey: .id)
                startTime = try container.decode(MetadataTime.self, forKey: .startTime)
                duration = try container.decode(MetadataTime.self, forKey: .duration)
                trackingEvents = try container.decodeIfPresent([EventWire].self, forKey: .trackingEvents)
                companionAds = (try? container.decodeIfPresent(CompanionAdsWire.self, forKey: .companionAds)) ?? nil
                icons = (try? container.decodeIfPresent([Lenient<IconWire>].self, forKey: .icons))?.compactMap(\.value)
                adVerifications = (try? container.decodeIfPresent([Lenient<VerificationWire>].self, forKey: .adVerifications))?
                    .compactMap(\.value)
                title = container.descriptiveText(forKey: .title)
                creativeId = container.descriptiveText(forKey: .creativeId)
                adSystem = container.descriptiveText(forKey: .adSystem)
            }

            /// The ad; a verification's `verificationNotExecuted` tracking joins the ad's own tracking events.
            var ad: Ad {
                var events = (trackingEvents ?? []).map(\.trackingEvent)
                var attached: [AttachedTracking] = []
                for companion in companionAds?.companion ?? [] {
                    attached += (companion.trackingEvents ?? []).compactMap { $0.value?.tracking(from: .companion) }
                }
                for icon in icons ?? [] {
                    if let urls = icon.iconViewTracking {
                        attached.append(AttachedTracking(source: .icon, event: AttachedTracking.iconView, startTime: nil, signalingURLs: urls))
                    }
                    if let clicks = icon.iconClicks?.iconClickTracking {
                        attached.append(
                            AttachedTracking(
                                source: .icon, event: AttachedTracking.iconClick, startTime: nil, signalingURLs: clicks.compactMap(\.uri)))
                    }
                }
                for verification in adVerifications ?? [] {
                    for case let tracking? in (verification.trackingEvents ?? []).map(\.value) {
                        let event = TrackingEventType(named: tracking.event)
                        guard event == .verificationNotExecuted else {
                            attached.append(tracking.tracking(from: .verification))
                            continue
                        }
                        events.append(
                            TrackingEvent(
                                event: event, startTime: tracking.startTime?.milliseconds ?? startTime.milliseconds,
                                duration: tracking.duration?.milliseconds ?? 0, signalingURLs: tracking.signalingURLs ?? []))
                    }
                }
                return Ad(
                    id: id.text, startTime: startTime.milliseconds, duration: duration.milliseconds, trackingEvents: events,
                    attachedTracking: attached, title: title, creativeID: creativeId, adSystem: adSystem)
            }
        }
        struct EventWire: Codable {
            /// A plain string: JSONDecoder decodes strings on a fast path, custom types through dynamic casts.
            var event: String
            var startTime: MetadataTime
            /// Optional in Harmonic's iOS client, never read by its Android one: none is 0.
            var duration: MetadataTime?
            var signalingURLs: [String]?

            // The wire names, as documents and earlier releases spell them.
            enum CodingKeys: String, CodingKey { case event, startTime, duration, signalingURLs = "signalingUrls" }

            init(_ event: TrackingEvent) {
                self.event = event.event.rawValue
                startTime = MetadataTime(event.startTime)
                duration = MetadataTime(event.duration)
                signalingURLs = event.signalingURLs
            }

            var trackingEvent: TrackingEvent {
                TrackingEvent(
                    event: TrackingEventType(named: event), startTime: startTime.milliseconds, duration: duration?.milliseconds ?? 0,
                    signalingURLs: signalingURLs ?? [])
            }
        }
        struct CompanionAdsWire: Codable {
            var companion: [CompanionWire]?

            init(companion: [CompanionWire]) {
                self.companion = companion
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                companion = (try? container.decodeIfPresent([Lenient<CompanionWire>].self, forKey: .companion))?.compactMap(\.value)
            }
        }
        struct CompanionWire: Codable {
            var trackingEvents: [Lenient<AttachedEventWire>]?

            init(trackingEvents: [AttachedEventWire]) {
                self.trackingEvents = trackingEvents.map(Lenient.init)
            }
        }
        /// A tracking event of a companion ad or a verification: only its type is needed.
        struct AttachedEventWire: Codable {
            var event: String
            var startTime: MetadataTime?
            var duration: MetadataTime?
            var signalingURLs: [String]?

            // The wire names, as documents and earlier releases spell them.
            enum CodingKeys: String, CodingKey { case event, startTime, duration, signalingURLs = "signalingUrls" }

            init(_ tracking: AttachedTracking) {
                event = tracking.event.rawValue
                startTime = tracking.startTime.map(MetadataTime.init)
                signalingURLs = tracking.signalingURLs
            }

            func tracking(from source: AttachedTracking.Source) -> AttachedTracking {
                AttachedTracking(
                    source: source, event: TrackingEventType(named: event), startTime: startTime?.milliseconds, signalingURLs: signalingURLs ?? [])
            }
        }
        struct IconWire: Codable {
            var iconViewTracking: [String]?
            var iconClicks: IconClicksWire?

            init(iconViewTracking: [String]? = nil, iconClicks: IconClicksWire? = nil) {
                self.iconViewTracking = iconViewTracking
                self.iconClicks = iconClicks
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                iconViewTracking = (try? container.decodeIfPresent([String].self, forKey: .iconViewTracking)) ?? nil
                iconClicks = (try? container.decodeIfPresent(IconClicksWire.self, forKey: .iconClicks)) ?? nil
            }
        }
        struct IconClicksWire: Codable {
            var iconClickTracking: [URIWire]?
        }
        struct URIWire: Codable {
            var uri: String?

            init(_ uri: String) {
                self.uri = uri
            }
        }
        struct VerificationWire: Codable {
            var trackingEvents: [Lenient<AttachedEventWire>]?
            init(trackingEvents: [AttachedEventWire]) {
                self.trackingEvents = trackingEvents.map(Lenient.init)
            }
        }
        /// A value read if it can be, else nil: one unreadable entry of a list does not lose the others.
        struct Lenient<Value: Codable>: Codable {
            var value: Value?

            init(_ value: Value) {
                self.value = value
            }

            init(from decoder: any Decoder) throws {
                value = try? Value(from: decoder)
            }

            func encode(to encoder: any Encoder) throws {
                try value.encode(to: encoder)
            }
        }
    }
}

/// Why a metadata body was rejected.
public struct MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    package var reason: String
    package init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

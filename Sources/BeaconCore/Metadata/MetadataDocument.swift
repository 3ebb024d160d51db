#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One ad-tracking metadata response: the data range it covers and its pods.
public struct MetadataDocument: Sendable, Equatable {
    public var dataRange: DataRange
    public var pods: [Pod]

    public init(dataRange: DataRange, pods: [Pod]) {
        self.dataRange = dataRange
        self.pods = pods
    }

    /// The latest epoch millisecond beaconctl reads anywhere: the end of year 9999, the last that
    /// ISO-8601's four-digit years can write.
    public static let latestTime: Milliseconds = 253_402_300_799_999

    /// The times a document may name, 2000-01-01T00:00:00Z to 2100-01-01T00:00:00Z: a program date
    /// time outside them is a broken server, not a stream.
    public static let validTimes: ClosedRange<Milliseconds> = 946_684_800_000...4_102_444_800_000

    /// The longest duration a document may give an ad break, an ad or a tracking event: a day.
    public static let longestDuration: Milliseconds = 86_400_000

    /// Decodes a metadata body. Unknown fields are ignored. A body that is not JSON, lacks
    /// `dataRange`, has a wrong type anywhere (a string, `null` or a fraction where integer
    /// milliseconds belong), a time outside ``validTimes``, a negative duration or one over
    /// ``longestDuration`` is rejected whole, with a reason naming the ad break, ad and tracking
    /// event at fault, so the caller keeps its previous state.
    ///
    /// A reader of exactly the metadata's shape (`MetadataParser`) reads the common body several
    /// times faster than JSONDecoder, which alone would spend 40 ms on a live window of a megabyte.
    /// It reads a strict subset of what JSONDecoder accepts, to the same document; whatever it is
    /// not sure of goes to JSONDecoder, which stays the authority on what is accepted and why not.
    public static func decode(_ body: some Collection<UInt8>) throws(MetadataError) -> MetadataDocument {
        let document: MetadataDocument
        if let parsed = MetadataParser.parse(body) {
            document = parsed
        } else {
            document = try decodeWithJSONDecoder(body)
        }
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
        return MetadataDocument(
            dataRange: wire.dataRange,
            pods: (wire.adBreaks ?? []).map { pod in
                Pod(
                    id: pod.id, startTime: pod.startTime, duration: pod.duration,
                    ads: (pod.ads ?? []).map { ad in
                        Ad(
                            id: ad.id, startTime: ad.startTime, duration: ad.duration,
                            trackingEvents: (ad.trackingEvents ?? []).map { event in
                                TrackingEvent(
                                    event: TrackingEventType(rawValue: event.event), startTime: event.startTime,
                                    duration: event.duration, signalingUrls: event.signalingUrls ?? [])
                            })
                    })
            })
    }

    /// The document in the metadata's wire format, as an ad-tracking service would serve it.
    public func encodedJSON() -> String {
        let wire = Wire.Document(
            dataRange: dataRange,
            adBreaks: pods.map { pod in
                Wire.PodWire(
                    id: pod.id, startTime: pod.startTime, duration: pod.duration,
                    ads: pod.ads.map { ad in
                        Wire.AdWire(
                            id: ad.id, startTime: ad.startTime, duration: ad.duration,
                            trackingEvents: ad.trackingEvents.map { event in
                                Wire.EventWire(
                                    event: event.event.rawValue, startTime: event.startTime, duration: event.duration,
                                    signalingUrls: event.signalingUrls)
                            })
                    })
            })
        return JSONLine.encode(wire)
    }

    private func validate() throws(MetadataError) {
        func check(_ place: @autoclosure () -> String, time: Milliseconds, named field: String) throws(MetadataError) {
            guard Self.validTimes.contains(time) else {
                throw MetadataError(
                    reason: "\(place()): \(field) \(time) (\(UTCTime.format(time))) is outside 2000-01-01..2100-01-01")
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
            throw MetadataError(reason: "dataRange: end \(UTCTime.format(dataRange.end)) is before start \(UTCTime.format(dataRange.start))")
        }
        for pod in pods {
            try check(MetadataRejection.place(pod: pod.id), start: pod.startTime, duration: pod.duration)
            for ad in pod.ads {
                try check(MetadataRejection.place(pod: pod.id, ad: ad.id), start: ad.startTime, duration: ad.duration)
                for event in ad.trackingEvents {
                    try check(
                        MetadataRejection.place(pod: pod.id, ad: ad.id, event: event.event.rawValue), start: event.startTime,
                        duration: event.duration)
                }
            }
        }
    }

    /// The metadata's wire shape; optional lists default to empty.
    private enum Wire {
        struct Document: Codable {
            var dataRange: DataRange
            var adBreaks: [PodWire]?
        }
        struct PodWire: Codable {
            var id: String
            var startTime: Milliseconds
            var duration: Milliseconds
            var ads: [AdWire]?
        }
        struct AdWire: Codable {
            var id: String
            var startTime: Milliseconds
            var duration: Milliseconds
            var trackingEvents: [EventWire]?
        }
        struct EventWire: Codable {
            /// A plain string: JSONDecoder decodes strings on a fast path, custom types through dynamic casts.
            var event: String
            var startTime: Milliseconds
            var duration: Milliseconds
            var signalingUrls: [String]?
        }
    }
}

/// Why a metadata body was rejected.
public struct MetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { reason }
}

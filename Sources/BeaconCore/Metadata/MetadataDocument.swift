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

    /// The latest epoch millisecond a document may name: the end of year 9999.
    public static let latestTime: Milliseconds = 253_402_300_799_999

    /// Decodes a metadata body. Unknown fields are ignored; a body that is not JSON, lacks
    /// `dataRange`, has wrong types or absurd times is rejected whole, so the caller keeps its previous state.
    public static func decode(_ body: some Collection<UInt8>) throws(MetadataError) -> MetadataDocument {
        let wire: Wire.Document
        do {
            wire = try JSONDecoder().decode(Wire.Document.self, from: Data(body))
        } catch let error as DecodingError {
            throw MetadataError(reason: Self.describe(error))
        } catch {
            throw MetadataError(reason: "not JSON")
        }
        let document = MetadataDocument(
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
        try document.validate()
        return document
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
        // The name is only built for a rejection, not for every valid event.
        func check(_ name: @autoclosure () -> String, time: Milliseconds, duration: Milliseconds) throws(MetadataError) {
            guard time >= 0, time <= Self.latestTime else {
                throw MetadataError(reason: "\(name()) has startTime \(time) outside 1970...9999")
            }
            guard duration >= 0, duration <= Self.latestTime - time else {
                throw MetadataError(reason: "\(name()) has impossible duration \(duration)")
            }
        }
        try check("dataRange", time: dataRange.start, duration: 0)
        try check("dataRange", time: dataRange.end, duration: 0)
        for pod in pods {
            try check("ad break \(pod.id)", time: pod.startTime, duration: pod.duration)
            for ad in pod.ads {
                try check("ad \(ad.id)", time: ad.startTime, duration: ad.duration)
                for event in ad.trackingEvents {
                    try check("\(event.event) of ad \(ad.id)", time: event.startTime, duration: event.duration)
                }
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let names = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }
            let joined = names.joined()
            return joined.hasPrefix(".") ? String(joined.dropFirst()) : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing '\(key.stringValue)'" + (parent.isEmpty ? "" : " in \(parent)")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let place = path(context)
            let expected = type == String.self ? "a string" : type == Milliseconds.self ? "an integer" : "of the expected type"
            return place.isEmpty ? "the document is not a JSON object" : "\(place) is not \(expected)"
        case .dataCorrupted(let context):
            let place = path(context)
            return place.isEmpty ? "not valid JSON" : "\(place) is not valid (\(context.debugDescription))"
        @unknown default:
            return "undecodable"
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

import BeaconDomain
import BeaconRuntime
import BeaconTerminal
import Foundation
import Testing

/// The dialect a test's ``AdService`` speaks: the same ad breaks, ads and tracking events with the
/// same signaling URLs, as a Harmonic metadata document or as a MediaTailor tracking document
/// behind a session-initialization POST. A scenario taking it as an argument runs the same
/// assertions against both.
enum ServedDialect: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case harmonic
    case mediaTailor

    var testDescription: String { rawValue }

    /// The dialect the daemon should say in status it chose.
    var dialect: Dialect {
        switch self {
        case .harmonic: .harmonic
        case .mediaTailor: .mediatailor
        }
    }

    /// The session id both dialects give the daemon.
    static let sessionID = "rel"

    /// MediaTailor's media time 0 on program date time: its `*ProgramDateTime` fields map the tests'
    /// program-date-time ticks onto the document's media time.
    static let programDateTimeStart = Ads.t0 - 600_000

    static let sessionInitPath = "/v1/session/acct/cfg/index.m3u8"
    static let trackingPathPrefix = "/v1/tracking/"

    /// The URL the player gives the daemon.
    func mediaURL(_ service: AdService) -> String {
        switch self {
        case .harmonic: "\(service.baseURL)/live/master.m3u8?\(SessionEndpoints.sessionParameter)=\(Self.sessionID)"
        case .mediaTailor: service.baseURL + Self.sessionInitPath
        }
    }

    /// Serves `adBreaks` from the service's tracking URL from now on.
    func serve(_ adBreaks: [AdBreak], on service: AdService) throws {
        switch self {
        case .harmonic: service.serve(Ads.document(adBreaks))
        case .mediaTailor: service.serve(body: try Self.trackingDocument(adBreaks))
        }
    }

    /// MediaTailor's answer to the session-initialization POST: relative URLs, the tracking URL's
    /// last segment being the session id.
    static let sessionInitAnswer = HTTPServer.Response.json(
        #"{"manifestUrl": "../../../master/acct/cfg/index.m3u8", "trackingUrl": "../../../tracking/acct/cfg/\#(sessionID)"}"#)

    /// `adBreaks` as MediaTailor's tracking document: times in seconds of media time, each level with
    /// its program date time, and a `nextToken` whose page repeats the same avails.
    static func trackingDocument(_ adBreaks: [AdBreak]) throws -> String {
        func seconds(_ milliseconds: Milliseconds) -> Double { Double(milliseconds - programDateTimeStart) / 1000 }
        func timing(_ prefix: String, start: Milliseconds, duration: Milliseconds) -> [String: Any] {
            ["startTimeInSeconds": seconds(start), "durationInSeconds": Double(duration) / 1000, "\(prefix)ProgramDateTime": UTCTime.format(start)]
        }
        let avails = adBreaks.map { adBreak in
            timing("avail", start: adBreak.startTime, duration: adBreak.duration).merging([
                "availId": adBreak.id,
                "ads": adBreak.ads.map { ad in
                    timing("ad", start: ad.startTime, duration: ad.duration).merging([
                        "adId": ad.id,
                        "trackingEvents": ad.trackingEvents.map { event in
                            timing("event", start: event.startTime, duration: event.duration).merging([
                                "eventId": "\(ad.id)-\(event.event.rawValue)", "eventType": event.event.rawValue, "beaconUrls": event.signalingURLs,
                            ]) { $1 }
                        },
                    ]) { $1 }
                },
            ]) { $1 }
        }
        let document: [String: Any] = ["avails": avails, "nonLinearAvails": [Any](), "nextToken": "repeat"]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

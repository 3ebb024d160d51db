import BeaconDomain
import BeaconSimulator
import Foundation
import Testing

/// A request body written by hand: `members` go in as they are, after `eventType` and `playerTime`.
func mediaCollectionBody(
    _ eventType: String, playhead: String = "12.5", ts: String = "1764115200000", _ members: String = ""
) -> [UInt8] {
    let rest = members.isEmpty ? "" : ", " + members
    return Array(#"{"eventType": "\#(eventType)", "playerTime": {"playhead": \#(playhead), "ts": \#(ts)}\#(rest)}"#.utf8)
}

/// The `params` of a valid `sessionStart`, with `extra` members added.
func sessionStartParams(_ extra: String = "") -> String {
    let rest = extra.isEmpty ? "" : ", " + extra
    return #""params": {"analytics.trackingServer": "metrics.example.com", "analytics.reportSuite": "example-rsid", "visitor.marketingCloudOrgId": "0123@AdobeOrg", "media.id": "vod-1", "media.length": 600, "media.contentType": "vod", "media.playerName": "beaconctl", "media.channel": "demo"\#(rest)}"#
}

@Suite("The Media Collection API's request schemas", .timeLimit(.minutes(2)))
struct MediaCollectionSchemaTests {
    func check(_ body: [UInt8], _ endpoint: MediaCollectionSchema.Endpoint = .events, contentType: String? = "application/json")
        -> Result<MediaCollectionEvent, MediaCollectionSchema.Refusal>
    {
        MediaCollectionSchema.check(endpoint, contentType: contentType, body: body)
    }

    func reason(_ body: [UInt8], _ endpoint: MediaCollectionSchema.Endpoint = .events, contentType: String? = "application/json") -> String? {
        guard case .failure(let refusal) = check(body, endpoint, contentType: contentType) else { return nil }
        return refusal.description
    }

    @Test func aSessionStartWithEveryRequiredParameterIsTaken() throws {
        let body = mediaCollectionBody(
            "sessionStart", playhead: "0",
            sessionStartParams(#""media.name": "Demo", "media.resume": true, "appInstallationId": "box-1", "analytics.enableSSL": true, "media.show": "Show""#)
                + #", "customMetadata": {"box.model": "x1", "tier_2": "gold"}, "qoeData": {"media.qoe.timeToStart": 900}"#)
        let event = try check(body, .sessions).get()
        #expect(event.type == .sessionStart)
        #expect(event.playhead == 0)
        #expect(event.ts == 1_764_115_200_000)
        #expect(event.params["media.id"] == .string("vod-1"))
        #expect(event.params["media.length"] == .integer(600))
        #expect(event.params["media.resume"] == .boolean(true))
        #expect(event.customMetadata == ["box.model": "x1", "tier_2": "gold"])
        #expect(event.qoeData["media.qoe.timeToStart"] == .integer(900))
    }

    @Test(arguments: [
        "analytics.trackingServer", "analytics.reportSuite", "visitor.marketingCloudOrgId", "media.id", "media.length",
        "media.contentType", "media.playerName", "media.channel",
    ])
    func aSessionStartWithoutARequiredParameterIsRefused(_ missing: String) throws {
        var params = sessionStartParams()
        let range = try #require(params.range(of: #""\#(missing)": "#))
        let end = try #require(params[range.upperBound...].firstIndex { $0 == "," || $0 == "}" })
        params.removeSubrange(range.lowerBound..<(params[end] == "," ? params.index(end, offsetBy: 2) : end))
        #expect(reason(mediaCollectionBody("sessionStart", params), .sessions) == "sessionStart needs the parameter \(missing)")
    }

    @Test func typesAreThoseOfTheSchemas() {
        #expect(reason(mediaCollectionBody("sessionStart", sessionStartParams().replacingOccurrences(of: "600", with: #""600""#)), .sessions)
            == "media.length is a string, not a number")
        #expect(reason(mediaCollectionBody("sessionStart", sessionStartParams(#""media.resume": "true""#)), .sessions)
            == "media.resume is a string, not a boolean")
        #expect(reason(mediaCollectionBody("play", playhead: #""12""#)) == "playerTime.playhead is a string, not a number")
        #expect(reason(mediaCollectionBody("play", ts: "1764115200000.5")) == "playerTime.ts is a number, not an integer")
        #expect(reason(mediaCollectionBody("adBreakStart", #""params": {"media.ad.podIndex": 1.5, "media.ad.podSecond": 30}"#))
            == "media.ad.podIndex is a number, not an integer")
        #expect(reason(mediaCollectionBody("bitrateChange", #""qoeData": {"media.qoe.bitrate": 2.5}"#)) == "media.qoe.bitrate is a number, not an integer")
        #expect(reason(mediaCollectionBody("sessionStart", sessionStartParams() + #", "customMetadata": {"episodes": 3}"#), .sessions)
            == "customMetadata episodes is an integer, not a string")
    }

    @Test func aPlayheadMayBeAnIntegerOrAFraction() throws {
        #expect(try check(mediaCollectionBody("play", playhead: "12")).get().playhead == 12)
        #expect(try check(mediaCollectionBody("play", playhead: "12.25")).get().playhead == 12.25)
    }

    @Test func theContentTypeMustBeJSON() {
        let body = mediaCollectionBody("play")
        #expect(reason(body, contentType: nil) == "Content-Type must be application/json, not absent")
        #expect(reason(body, contentType: "text/plain") == "Content-Type must be application/json, not text/plain")
        #expect(reason(body, contentType: "application/x-www-form-urlencoded") != nil)
        #expect(reason(body, contentType: "application/json; charset=utf-8") == nil)
        #expect(reason(body, contentType: "Application/JSON") == nil)
    }

    @Test func theBodyIsAJSONObjectWithKnownMembers() {
        #expect(reason(Array("eventType=play".utf8)) == "the body is not JSON")
        #expect(reason(Array("[1, 2]".utf8)) == "the body is a JSON array, not an object")
        #expect(reason(Array(#"{"playerTime": {"playhead": 1, "ts": 1764115200000}}"#.utf8)) == "eventType is missing")
        #expect(reason(mediaCollectionBody("resume")) == #"eventType "resume" is not an event type"#)
        #expect(reason(mediaCollectionBody("play", #""sessionId": "x""#)) == #"unknown member "sessionId""#)
        #expect(reason(Array(#"{"eventType": "play"}"#.utf8)) == "playerTime is missing")
        #expect(reason(Array(#"{"eventType": "play", "playerTime": {"ts": 1764115200000}}"#.utf8)) == "playerTime.playhead is missing")
        #expect(reason(Array(#"{"eventType": "play", "playerTime": {"playhead": 1}}"#.utf8)) == "playerTime.ts is missing")
        #expect(reason(Array(#"{"eventType": "play", "playerTime": {"playhead": 1, "ts": 1764115200000, "rate": 1}}"#.utf8))
            == #"playerTime has an unknown member "rate""#)
    }

    @Test func eachEndpointTakesItsOwnEvents() {
        #expect(reason(mediaCollectionBody("play"), .sessions) == "the sessions endpoint takes sessionStart, not play")
        #expect(reason(mediaCollectionBody("sessionStart", sessionStartParams())) == "sessionStart goes to the sessions endpoint")
    }

    @Test func eventsWithoutParametersTakeAnEmptyMapOrNone() {
        for type in ["play", "pauseStart", "bufferStart", "adComplete", "adSkip", "adBreakComplete", "chapterComplete", "chapterSkip", "sessionComplete", "sessionEnd"] {
            #expect(reason(mediaCollectionBody(type)) == nil, "\(type)")
            #expect(reason(mediaCollectionBody(type, #""params": {}"#)) == nil, "\(type)")
            #expect(reason(mediaCollectionBody(type, #""params": {"media.id": "x"}"#)) == "\(type) takes no parameter media.id", "\(type)")
        }
    }

    @Test func aPingCarriesNoParams() {
        #expect(reason(mediaCollectionBody("ping")) == nil)
        #expect(reason(mediaCollectionBody("ping", #""params": {}"#)) == "ping carries no params")
        #expect(reason(mediaCollectionBody("ping", #""qoeData": {"media.qoe.droppedFrames": 2}"#)) == nil)
    }

    @Test func adBreakAdAndChapterStartsCarryTheirRequiredParameters() {
        #expect(reason(mediaCollectionBody("adBreakStart", #""params": {"media.ad.podIndex": 1, "media.ad.podSecond": 30.5, "media.ad.podFriendlyName": "mid-roll"}"#)) == nil)
        #expect(reason(mediaCollectionBody("adBreakStart", #""params": {"media.ad.podIndex": 1}"#)) == "adBreakStart needs the parameter media.ad.podSecond")
        #expect(reason(mediaCollectionBody("adBreakStart")) == "adBreakStart needs params")
        let ad = #""media.ad.id": "ad-1", "media.ad.length": 15, "media.ad.podPosition": 1, "media.ad.playerName": "beaconctl""#
        #expect(reason(mediaCollectionBody("adStart", #""params": {\#(ad), "media.ad.creativeId": "c-1"}, "customMetadata": {"adSystem": "demo"}"#)) == nil)
        #expect(reason(mediaCollectionBody("adStart", #""params": {"media.ad.id": "ad-1", "media.ad.length": 15, "media.ad.podPosition": 1}"#))
            == "adStart needs the parameter media.ad.playerName")
        #expect(reason(mediaCollectionBody("adStart", #""params": {\#(ad), "media.ad.system": "demo"}"#)) == "adStart takes no parameter media.ad.system")
        #expect(reason(mediaCollectionBody("chapterStart", #""params": {"media.chapter.index": 1, "media.chapter.offset": 0, "media.chapter.length": 120, "media.chapter.friendlyName": "Intro"}"#)) == nil)
        #expect(reason(mediaCollectionBody("chapterStart", #""params": {"media.chapter.index": 1, "media.chapter.length": 120}"#))
            == "chapterStart needs the parameter media.chapter.offset")
    }

    @Test func statesCarryTheirName() {
        #expect(reason(mediaCollectionBody("stateStart", #""params": {"media.state.name": "mute"}"#)) == nil)
        #expect(reason(mediaCollectionBody("stateEnd", #""params": {"media.state.name": "fullscreen"}"#)) == nil)
        #expect(reason(mediaCollectionBody("stateStart")) == "stateStart needs params")
        #expect(reason(mediaCollectionBody("stateEnd", #""params": {"media.state.name": true}"#)) == "media.state.name is a boolean, not a string")
    }

    @Test func aBitrateChangeAndAnErrorCarryTheirQualityData() {
        #expect(reason(mediaCollectionBody("bitrateChange", #""qoeData": {"media.qoe.bitrate": 5000000, "media.qoe.framesPerSecond": 30}"#)) == nil)
        #expect(reason(mediaCollectionBody("bitrateChange")) == "bitrateChange needs qoeData with media.qoe.bitrate")
        #expect(reason(mediaCollectionBody("bitrateChange", #""qoeData": {"media.qoe.droppedFrames": 1}"#)) == "bitrateChange needs qoeData with media.qoe.bitrate")
        #expect(reason(mediaCollectionBody("bitrateChange", #""params": {"media.qoe.bitrate": 5000000}"#)) == "bitrateChange takes no parameter media.qoe.bitrate")
        #expect(reason(mediaCollectionBody("error", #""qoeData": {"media.qoe.errorID": "E42", "media.qoe.errorSource": "player"}"#)) == nil)
        #expect(reason(mediaCollectionBody("error", #""qoeData": {"media.qoe.errorSource": "player"}"#)) == "error needs qoeData with media.qoe.errorID")
        #expect(reason(mediaCollectionBody("error", #""qoeData": {"media.qoe.errorID": "E42"}"#)) == "error needs qoeData with media.qoe.errorSource")
        #expect(reason(mediaCollectionBody("error", #""qoeData": {"media.qoe.errorID": "E42", "media.qoe.errorSource": "application"}"#))
            == #"media.qoe.errorSource is "application", not one of external, player"#)
        #expect(reason(mediaCollectionBody("play", #""qoeData": {"media.qoe.latency": 3}"#)) == "qoeData takes no member media.qoe.latency")
    }

    @Test func customMetadataGoesOnlyWithSessionAdAndChapterStarts() {
        #expect(reason(mediaCollectionBody("play", #""customMetadata": {"a": "b"}"#)) == "play carries no customMetadata")
        #expect(reason(mediaCollectionBody("sessionStart", sessionStartParams() + #", "customMetadata": {"bad key": "b"}"#), .sessions)
            == #"customMetadata key "bad key" has characters other than letters, digits, _ and ."#)
    }

    @Test func aSessionStartTakesOnlyKnownParameters() {
        #expect(reason(mediaCollectionBody("sessionStart", sessionStartParams(#""media.colour": "red""#)), .sessions)
            == "sessionStart takes no parameter media.colour")
        #expect(reason(mediaCollectionBody("sessionStart", playhead: "0"), .sessions) == "sessionStart needs params")
    }
}

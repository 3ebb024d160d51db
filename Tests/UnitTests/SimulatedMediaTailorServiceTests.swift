import BeaconDomain
import BeaconHTTP
import BeaconRuntime
import BeaconSimulator
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The loopback MediaTailor's SGAI mode, for the demo and the end-to-end tests: session init
/// without a tracking URL, and an asset list per avail whose `TRACKING` reads as a tracking document.
@Suite(.timeLimit(.minutes(2))) struct SimulatedMediaTailorServiceTests {
    static let avail = SimulatedMediaTailorService.Avail(id: "b1", start: 30_000, adCount: 2, adDuration: 8_000)

    static func withSGAIService(_ body: (SimulatedMediaTailorService, CurlHTTPClient) async throws -> Void) async throws {
        var behavior = SimulatedMediaTailorService.Behavior()
        behavior.sgai = true
        try await withLoopbackService(
            { try await SimulatedMediaTailorService.start(avails: [avail], programDateTimeStart: 1_700_000_000_000, behavior: behavior) },
            stop: { await $0.stop() }, body)
    }

    /// The asset list's members the test reads.
    struct AssetList: Decodable {
        struct Asset: Decodable {
            var URI: String
            var DURATION: Double
        }
        var ASSETS: [Asset]
    }

    static func get(_ client: CurlHTTPClient, _ url: String) async throws -> HTTPClientResponse {
        try await client.send(HTTPClientRequest(url: url, maxResponseBytes: 1 << 20))
    }

    /// The TRACKING section of an asset list, as its own bytes; nil when it has none.
    static func tracking(_ body: [UInt8]) throws -> [UInt8]? {
        struct Tracked: Decodable { var TRACKING: JSONValue? }
        guard let tracking = try JSONDecoder().decode(Tracked.self, from: Data(body)).TRACKING else { return nil }
        return Array(try JSONEncoder().encode(tracking))
    }

    @Test func sgaiInitAnswersAManifestWithTheSessionIDAndAnAssetListCarriesTheAvailsTracking() async throws {
        try await Self.withSGAIService { service, client in
            let endpoints = try await SessionInitializer(client: client, sgai: true).start(mediaURL: service.sessionInitURL)
            #expect(endpoints.isSGAI && endpoints.sessionID == "sim-1" && !endpoints.pollsMetadata)
            #expect(endpoints.manifestURL == service.server.baseURL + "/v1/master/sim-account/sim-config/index.m3u8?aws.sessionId=sim-1")
            let asked = try #require(service.initRequests().first)
            #expect(asked.queryAsksClientReporting && asked.bodyAsksClientReporting && asked.insertionMode == "GUIDED")

            let answer = try await Self.get(client, service.assetListURL(availID: "b1", sessionID: "sim-1"))
            #expect(answer.status == 200)
            let list = try JSONDecoder().decode(AssetList.self, from: Data(answer.body))
            #expect(list.ASSETS.map(\.URI) == ["b1-ad1", "b1-ad2"].map { service.server.baseURL + "/ads/\($0)/index.m3u8" })
            #expect(list.ASSETS.map(\.DURATION) == [8, 8])
            // The tracking API's schema: the daemon's own decoder reads it, on the session's media time.
            let document = try MediaTailorDocument.decode(try #require(try Self.tracking(answer.body))).metadata
            #expect(document.adBreaks.map(\.id) == ["b1"])
            #expect(document.adBreaks.first?.startTime == 30_000)
            let ads = document.adBreaks.first?.ads.filter { $0.id.hasPrefix("b1-ad") } ?? []
            #expect(ads.map(\.startTime) == [30_000, 38_000])
            let impression = ads.first?.trackingEvents.first { $0.event == .impression }
            #expect(impression?.signalingURLs == [service.server.baseURL + "/beacon/b1-ad1/impression"])
            #expect(service.assetListRequests() == ["/v1/asset-list/sim-account/sim-config/b1?aws.sessionId=sim-1"])
        }
    }

    /// Server-side reporting: the switch off, or a session that did not ask for client reporting,
    /// gets asset lists without TRACKING; an unknown avail or session is a 404.
    @Test func withoutClientReportingTheAssetListHasNoTracking() async throws {
        try await Self.withSGAIService { service, client in
            _ = try await SessionInitializer(client: client, sgai: true).start(mediaURL: service.sessionInitURL)
            service.change { $0.assetListTracking = false }
            let switchedOff = try await Self.get(client, service.assetListURL(availID: "b1", sessionID: "sim-1"))
            #expect(try Self.tracking(switchedOff.body) == nil)
            #expect(try JSONDecoder().decode(AssetList.self, from: Data(switchedOff.body)).ASSETS.count == 2)

            service.change { $0.assetListTracking = true }
            let stitchedAsk = HTTPClientRequest(
                method: .post, url: service.sessionInitURL, headers: [(name: "Content-Type", value: "application/json")], body: Array("{}".utf8),
                maxResponseBytes: 4096)
            #expect(try await client.send(stitchedAsk).status == 200)
            #expect(service.initRequests().last?.queryAsksClientReporting == false)
            let serverSide = try await Self.get(client, service.assetListURL(availID: "b1", sessionID: "sim-2"))
            #expect(try Self.tracking(serverSide.body) == nil)

            #expect(try await Self.get(client, service.assetListURL(availID: "b9", sessionID: "sim-1")).status == 404)
            #expect(try await Self.get(client, service.assetListURL(availID: "b1", sessionID: "sim-9")).status == 404)
        }
    }
}

/// Written back as read, to lift a section out of a document.
extension JSONValue: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

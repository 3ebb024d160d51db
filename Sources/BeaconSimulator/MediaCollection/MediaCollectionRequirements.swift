import BeaconDomain

/// What the Media Collection API's validation schemas ask of a request body, per event type: the
/// `params` keys it must and may carry with their JSON types (`visitor.customerIDs`, an object
/// beaconctl never sends, is left out), whether it may carry `params` or
/// `customMetadata` at all, and what its `qoeData` must carry. Written from Adobe's parameter
/// reference and published schemas; where they are silent the double asks what makes the event
/// meaningful (a bitrate change carries the bitrate, an error its id) and says so.
package struct MediaCollectionRequirements: Sendable {
    /// A JSON type as the schemas name it; `number` takes integers too.
    package enum ValueType: String, Sendable {
        case string, integer, number, boolean

        package func admits(_ value: ReceivedJSON) -> Bool {
            switch (self, value) {
            case (.string, .string), (.integer, .integer), (.number, .integer), (.number, .number), (.boolean, .boolean): true
            default: false
            }
        }
    }

    package var requiredParams: [String: ValueType] = [:]
    package var optionalParams: [String: ValueType] = [:]
    /// False for `ping`: Adobe asks pings not to carry the `params` map at all.
    package var paramsAllowed = true
    /// Only `sessionStart`, `adStart` and `chapterStart` carry custom metadata.
    package var customMetadataAllowed = false
    /// Keys the event's `qoeData` must carry.
    package var requiredQuality: Set<String> = []

    /// The keys and types `qoeData` may carry, on any event.
    package static let quality: [String: ValueType] = [
        "media.qoe.bitrate": .integer, "media.qoe.droppedFrames": .integer, "media.qoe.framesPerSecond": .integer,
        "media.qoe.timeToStart": .integer, "media.qoe.errorID": .string, "media.qoe.errorSource": .string,
    ]

    /// The values a `qoeData` string may take, where Adobe lists them.
    package static let qualityValues: [String: Set<String>] = ["media.qoe.errorSource": ["player", "external"]]

    /// What a custom metadata key may be made of.
    package static func isCustomMetadataKey(_ key: String) -> Bool {
        !key.isEmpty && key.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "_" || $0 == "." }
    }

    package static func of(_ type: MediaCollectionEventType) -> Self {
        switch type {
        case .sessionStart: sessionStart
        case .adBreakStart: Self(requiredParams: ["media.ad.podIndex": .integer, "media.ad.podSecond": .number], optionalParams: ["media.ad.podFriendlyName": .string])
        case .adStart: adStart
        case .chapterStart:
            Self(
                requiredParams: ["media.chapter.index": .integer, "media.chapter.offset": .number, "media.chapter.length": .number],
                optionalParams: ["media.chapter.friendlyName": .string], customMetadataAllowed: true)
        case .stateStart, .stateEnd: Self(requiredParams: ["media.state.name": .string])
        case .ping: Self(paramsAllowed: false)
        // Not in the schemas: a bitrate change without the bitrate, an error without its id and source, say nothing.
        case .bitrateChange: Self(requiredQuality: ["media.qoe.bitrate"])
        case .error: Self(requiredQuality: ["media.qoe.errorID", "media.qoe.errorSource"])
        case .sessionComplete, .sessionEnd, .adBreakComplete, .adComplete, .adSkip, .chapterComplete, .chapterSkip, .play, .bufferStart, .pauseStart:
            Self()
        }
    }

    private static let sessionStart: Self = {
        let standardMetadata = [
            "media.streamFormat", "media.show", "media.season", "media.episode", "media.assetId", "media.genre", "media.firstAirDate",
            "media.firstDigitalDate", "media.rating", "media.originator", "media.network", "media.showType", "media.adLoad",
            "media.pass.mvpd", "media.pass.auth", "media.dayPart", "media.feed",
        ]
        var optional: [String: ValueType] = [
            "analytics.enableSSL": .boolean, "analytics.visitorId": .string, "analytics.aid": .string,
            "analytics.optOutServerSideForwarding": .boolean, "analytics.optOutShare": .boolean,
            "visitor.marketingCloudUserId": .string, "visitor.aamLocationHint": .integer,
            "appInstallationId": .string, "media.name": .string, "media.streamType": .string, "media.publisher": .string,
            "media.resume": .boolean, "media.downloaded": .boolean, "media.sdkVersion": .string, "media.libraryVersion": .string,
        ]
        for key in standardMetadata { optional[key] = .string }
        return Self(
            requiredParams: [
                "analytics.trackingServer": .string, "analytics.reportSuite": .string, "visitor.marketingCloudOrgId": .string,
                "media.id": .string, "media.length": .number, "media.contentType": .string, "media.playerName": .string,
                "media.channel": .string,
            ],
            optionalParams: optional, customMetadataAllowed: true)
    }()

    private static let adStart = Self(
        requiredParams: ["media.ad.id": .string, "media.ad.length": .number, "media.ad.podPosition": .integer, "media.ad.playerName": .string],
        optionalParams: [
            "media.ad.name": .string, "media.ad.advertiser": .string, "media.ad.campaignId": .string, "media.ad.creativeId": .string,
            "media.ad.siteId": .string, "media.ad.creativeURL": .string, "media.ad.placementId": .string,
            // Adobe's own timelines send the break's name with each ad.
            "media.ad.podFriendlyName": .string,
        ],
        customMetadataAllowed: true)
}

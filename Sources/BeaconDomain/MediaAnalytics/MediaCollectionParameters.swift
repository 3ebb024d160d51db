/// The `params`, `qoeData` and `customMetadata` of each event type, under the Media Collection API's
/// names and JSON types (its request-parameter tables and validation schemas).
package enum MediaCollectionParameters {
    /// `media.length` of a live or linear stream, which has none: a day, as Adobe's players report.
    package static let liveLength: Double = 86_400

    /// What describes the box and the player for every session.
    package struct Reporting: Sendable, Equatable {
        package var settings: MediaAnalyticsSettings
        /// `media.libraryVersion`, and `media.sdkVersion` unless the `sdk` setting names the player's.
        package var version: String
        /// `appInstallationId`: made once per box and kept in the state directory.
        package var installationID: String

        package init(settings: MediaAnalyticsSettings, version: String, installationID: String) {
            self.settings = settings
            self.version = version
            self.installationID = installationID
        }
    }

    /// The stream type reported: the player's, or live when it gave no length.
    package static func streamType(of content: ContentInformation) -> ContentInformation.StreamType {
        content.streamType ?? (content.length == nil ? .live : .vod)
    }

    /// `sessionStart`'s parameters: every one the API requires, then what the player told of the content.
    package static func sessionStart(
        reporting: Reporting, content: ContentInformation, mediaURL: String, resume: Bool
    ) -> (params: [String: MediaCollectionValue], customMetadata: [String: String]) {
        let settings = reporting.settings
        let id = content.id ?? content.name ?? withoutQuery(mediaURL)
        var params: [String: MediaCollectionValue] = [
            "analytics.trackingServer": .string(settings.trackingServer),
            "analytics.reportSuite": .string(settings.reportSuite),
            "analytics.enableSSL": .boolean(settings.ssl),
            "visitor.marketingCloudOrgId": .string(settings.orgID),
            "media.id": .string(id),
            "media.name": .string(content.name ?? id),
            "media.length": .number(finite(content.length ?? liveLength)),
            "media.contentType": .string(streamType(of: content).rawValue),
            "media.streamType": .string("video"),
            "media.playerName": .string(settings.playerName),
            "media.channel": .string(settings.channel),
            "media.sdkVersion": .string(settings.sdk ?? reporting.version),
            "media.libraryVersion": .string(reporting.version),
            "appInstallationId": .string(reporting.installationID),
        ]
        if let userID = settings.userID { params["analytics.visitorId"] = .string(userID) }
        if let publisher = settings.publisher { params["media.publisher"] = .string(publisher) }
        if resume { params["media.resume"] = .boolean(true) }
        for (key, value) in content.standardMetadata where ContentInformation.standardMetadataKeys.contains(key) {
            params["media.\(key)"] = .string(value)
        }
        // The API has no parameter for these two settings; the operator's value wins over a player's key of that name.
        var custom = customMetadata(content.customMetadata)
        if let jobID = settings.jobID { custom["jobId"] = jobID }
        if let ovp = settings.ovp { custom["ovp"] = ovp }
        return (params, custom)
    }

    /// The player's custom keys as the API takes them: letters, digits, `_` and `.`; any other
    /// character becomes `_` (`my-key` is sent as `my_key`).
    package static func customMetadata(_ metadata: [String: String]) -> [String: String] {
        let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "_" || c == ".") }
        return Dictionary(metadata.map { (String($0.key.map { allowed($0) ? $0 : "_" }), $0.value) }) { first, _ in first }
    }

    package static func adBreakStart(_ adBreak: AdBreakSummary) -> [String: MediaCollectionValue] {
        [
            "media.ad.podIndex": .integer(Int64(adBreak.index)),
            "media.ad.podSecond": .number(finite(adBreak.contentOffset)),
            "media.ad.podFriendlyName": .string(adBreak.id),
        ]
    }

    /// `adStart`'s parameters; the ad system has no standard key, so it rides in the custom metadata.
    package static func adStart(
        _ ad: AdSummary, playerName: String
    ) -> (params: [String: MediaCollectionValue], customMetadata: [String: String]) {
        var params: [String: MediaCollectionValue] = [
            "media.ad.podPosition": .integer(Int64(ad.position)),
            "media.ad.id": .string(ad.id),
            "media.ad.name": .string(ad.title ?? ad.id),
            "media.ad.length": .number(Double(ad.duration) / 1000),
            "media.ad.playerName": .string(playerName),
        ]
        if let creativeID = ad.creativeID { params["media.ad.creativeId"] = .string(creativeID) }
        var customMetadata: [String: String] = [:]
        if let adSystem = ad.adSystem { customMetadata["adSystem"] = adSystem }
        return (params, customMetadata)
    }

    package static func chapterStart(_ chapter: Chapter) -> [String: MediaCollectionValue] {
        var params: [String: MediaCollectionValue] = [
            "media.chapter.index": .integer(Int64(chapter.index)),
            "media.chapter.offset": .number(finite(chapter.offset)),
            "media.chapter.length": .number(finite(chapter.length)),
        ]
        if let name = chapter.name { params["media.chapter.friendlyName"] = .string(name) }
        return params
    }

    package static func state(_ name: String) -> [String: MediaCollectionValue] {
        ["media.state.name": .string(name)]
    }

    /// The quality the player measured, as `qoeData`: only the keys it gave.
    package static func quality(_ quality: QualityOfService) -> [String: MediaCollectionValue] {
        var qoe: [String: MediaCollectionValue] = [:]
        if let bitrate = quality.bitrate { qoe["media.qoe.bitrate"] = .integer(Int64(bitrate)) }
        if let droppedFrames = quality.droppedFrames { qoe["media.qoe.droppedFrames"] = .integer(Int64(droppedFrames)) }
        // The API's schema types both as integers; Adobe's SDKs truncate the frame rate: 29.97 is sent as 29.
        if let fps = quality.fps { qoe["media.qoe.framesPerSecond"] = .integer(Int64(finite(fps).rounded(.towardZero))) }
        if let startupTime = quality.startupTime { qoe["media.qoe.timeToStart"] = .integer(Int64(finite(startupTime).rounded())) }
        return qoe
    }

    /// An error's `qoeData`: its id and source, `player` or `external` (the application around the player).
    package static func error(_ error: PlaybackError) -> [String: MediaCollectionValue] {
        [
            "media.qoe.errorID": .string(error.id),
            "media.qoe.errorSource": .string(error.source == .player ? "player" : "external"),
        ]
    }

    /// The media URL without its query and fragment, where tokens live: the content's id when the
    /// player gave none.
    package static func withoutQuery(_ url: String) -> String {
        String(url.prefix { $0 != "?" && $0 != "#" })
    }

    static func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
}

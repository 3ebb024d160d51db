/// The `load` JSON's `"heartbeat"` object. Each field is read under our name or the Quickplay
/// playback authorization's (`heartbeatFlag`, `heartbeatToken`, `heartbeatFreq`,
/// `heartbeatHeaders`, `overflowEventMode`), as integrators forward it; the wire's own names
/// (`contentId`, `primaryContentId`) are ours too. A key known
/// under neither is kept in ``HeartbeatOptions/unknownKeys`` for the heartbeat to warn of. `freq`
/// is in milliseconds, the live times in epoch milliseconds.
extension HeartbeatOptions: Decodable {
    /// Each field's accepted names, ours first.
    package enum Field: CaseIterable, Sendable {
        case flag, token, headers, freq, contentID, catalogType, primaryContentID, liveStartTime, liveEndTime
        case live360StartTime, live360EndTime, liveEventType, overflowMode

        package var names: [String] {
            switch self {
            case .flag: ["flag", "heartbeatFlag"]
            case .token: ["token", "heartbeatToken"]
            case .headers: ["headers", "heartbeatHeaders"]
            case .freq: ["freq", "heartbeatFreq"]
            case .contentID: ["contentId"]
            case .catalogType: ["catalogType"]
            case .primaryContentID: ["primaryContentId"]
            case .liveStartTime: ["liveStartTime"]
            case .liveEndTime: ["liveEndTime"]
            case .live360StartTime: ["live360StartTime"]
            case .live360EndTime: ["live360EndTime"]
            case .liveEventType: ["liveEventType"]
            case .overflowMode: ["overflowMode", "overflowEventMode"]
            }
        }
    }

    /// Every name a key of the object may have.
    package static let knownKeys = Field.allCases.flatMap(\.names)

    /// The shortest `freq` taken: a player's typo must not turn the heartbeat into a flood.
    package static let minimumFrequency: Milliseconds = 100
    /// The longest: a day.
    package static let maximumFrequency: Milliseconds = 86_400_000

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        /// The key the object gives for `field`: ours when both are given.
        func key(_ field: Field) -> JSONKey {
            JSONKey(field.names.first { container.contains(JSONKey($0)) } ?? field.names[0])
        }
        let epoch = "must be a whole number of epoch milliseconds"
        self.init(
            flag: try container.liberalBool(forKey: key(.flag)) ?? false,
            token: try container.liberalText(forKey: key(.token)),
            freq: try container.liberalInteger(
                forKey: key(.freq), in: Self.minimumFrequency...Self.maximumFrequency,
                "must be a whole number of milliseconds from \(Self.minimumFrequency) to \(Self.maximumFrequency)"),
            contentID: try container.liberalText(forKey: key(.contentID)),
            catalogType: try container.liberalText(forKey: key(.catalogType)),
            primaryContentID: try container.liberalText(forKey: key(.primaryContentID)),
            liveStartTime: try container.liberalInteger(forKey: key(.liveStartTime), in: 0...MetadataDocument.latestTime, epoch),
            liveEndTime: try container.liberalInteger(forKey: key(.liveEndTime), in: 0...MetadataDocument.latestTime, epoch),
            liveEventType: try container.liberalChoice(LiveEventType.self, forKey: key(.liveEventType)),
            overflowMode: try container.liberalChoice(OverflowMode.self, forKey: key(.overflowMode)))
        headers = try Self.headers(in: container, forKey: key(.headers))
        // Checked, not kept: no decision depends on when a live 360 event's pre-show starts.
        _ = try container.liberalInteger(forKey: key(.live360StartTime), in: 0...MetadataDocument.latestTime, epoch)
        live360EndTime = try container.liberalInteger(forKey: key(.live360EndTime), in: 0...MetadataDocument.latestTime, epoch)
        let known = Set(Self.knownKeys)
        unknownKeys = container.allKeys.map(\.stringValue).filter { !known.contains($0) }.sorted()
    }

    /// The playback's extra headers: an object of names to text, under the same rules as the
    /// configured ones.
    private static func headers(in container: KeyedDecodingContainer<JSONKey>, forKey key: JSONKey) throws -> [String: String] {
        guard container.contains(key), try !container.decodeNil(forKey: key) else { return [:] }
        guard let object = try? container.nestedContainer(keyedBy: JSONKey.self, forKey: key) else {
            throw container.refusal(key, "must be an object of header names to values")
        }
        var headers: [String: String] = [:]
        for name in object.allKeys { headers[name.stringValue] = try object.liberalText(forKey: name) }
        if let reason = ExtraHeaders.refusal(of: headers, reserved: HeartbeatRequest.reservedHeaders) {
            throw container.refusal(key, reason)
        }
        return headers
    }

    /// Why the heartbeat warns of each unknown key: its name, and the known one it may have meant.
    package var unknownKeyWarnings: [String] {
        unknownKeys.map { key in
            let suggestion = NameSuggestion.nearest(to: key, among: Self.knownKeys).map { " (did you mean \($0)?)" } ?? ""
            return "heartbeat: unknown key '\(key)'\(suggestion), ignored"
        }
    }
}

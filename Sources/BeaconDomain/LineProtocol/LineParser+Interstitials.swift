/// The lines by which the player says what an HLS interstitial (a MediaTailor SGAI ad break) plays:
/// `interstitial-start {...}`, `interstitial-asset {...}`, `interstitial-end {...}`, and the JSON
/// tick `{"interstitial": id, "asset": n, "position": s, "at": ms, "rate": x}`. Their objects are
/// read as the other player-information objects are (``LineJSON``, `LiberalJSONReading`): a number
/// may come as text, null is absent, unknown keys are ignored, and an unusable value refuses the
/// line naming its key. Seconds become milliseconds under the rules of the main ticks.
extension LineParser {
    /// The longest interstitial id taken, in UTF-8 bytes: a date range's `ID` is a name, not prose.
    package static let maxInterstitialIDBytes = 256

    static let interstitialParsers: [String: @Sendable (String) -> Result<InputCommand, LineError>] = [
        "interstitial-start": parseInterstitialStart,
        "interstitial-asset": parseInterstitialAsset,
        "interstitial-end": { json in
            LineJSON.decode(EndFields.self, from: json, command: "interstitial-end", form: #"{"id", "reason"}"#)
                .map { .interstitial(.end(InterstitialEnd(id: $0.id, reason: $0.reason))) }
        },
    ]

    /// `{"id", "start": epoch ms or ISO-8601 date, "position": s, "resumeOffset": s, "assetList": {...} or "{...}"}`.
    private static func parseInterstitialStart(_ json: String) -> Result<InputCommand, LineError> {
        let command = "interstitial-start"
        return LineJSON.decode(StartFields.self, from: json, command: command, form: #"{"id", "start", "position", "resumeOffset", "assetList"}"#)
            .flatMap { fields in
                guard fields.start != nil || fields.position != nil else {
                    return .failure(LineError(#"interstitial-start needs "start" (a date) or "position" (seconds)"#))
                }
                var start = InterstitialStart(id: fields.id)
                do throws(LineError) {
                    start.start = try fields.start?.get()
                    start.position = try optional(fields.position) { position($0) }.get()
                    start.resumeOffset = try optional(fields.resumeOffset) { position($0, name: "resumeOffset") }.get()
                    start.assetList = try assetList(fields.assetList).get()
                } catch {
                    return .failure(LineError("\(command): \(error.reason)"))
                }
                return .success(.interstitial(.start(start)))
            }
    }

    /// `{"id", "index": n, "uri", "duration": s}`.
    private static func parseInterstitialAsset(_ json: String) -> Result<InputCommand, LineError> {
        LineJSON.decode(AssetFields.self, from: json, command: "interstitial-asset", form: #"{"id", "index", "uri", "duration"}"#)
            .flatMap { fields in
                let duration: Milliseconds?
                switch fields.duration.map({ position($0, name: "duration") }) {
                case nil: duration = nil
                case .success(let value)? where value > 0: duration = value
                case .success?: return .failure(LineError("interstitial-asset: duration must be more than 0 seconds"))
                case .failure(let error)?: return .failure(LineError("interstitial-asset: \(error.reason)"))
                }
                return .success(.interstitial(.asset(InterstitialAssetStart(id: fields.id, index: fields.index, uri: fields.uri, duration: duration))))
            }
    }

    /// `{"interstitial": id, "asset": n, "position": s, "at": ms, "rate": x}`, from ``parseJSONTick(_:)``.
    static func parseInterstitialTick(_ json: String) -> Result<InputCommand, LineError> {
        let command = "interstitial tick"
        return LineJSON.decode(TickFields.self, from: json, command: command, form: #"{"interstitial", "asset", "position", "at", "rate"}"#)
            .flatMap { fields in
                guard !fields.hasPlayhead else {
                    return .failure(LineError(#"interstitial tick: gives "position" in its asset, not "playhead""#))
                }
                var tick: InterstitialTick
                do throws(LineError) {
                    tick = InterstitialTick(id: fields.id, asset: fields.asset, position: try position(fields.position).get())
                    tick.observedAt = try optional(fields.at) { milliseconds($0, name: "at") }.get()
                } catch {
                    return .failure(LineError("\(command): \(error.reason)"))
                }
                if let rate = fields.rate, rate < 0 {
                    return .failure(LineError("\(command): rate is not a finite non-negative number"))
                }
                tick.rate = fields.rate
                return .success(.interstitial(.tick(tick)))
            }
    }

    /// `value` converted, or nil when absent.
    private static func optional(_ value: Double?, _ convert: (Double) -> Result<Milliseconds, LineError>) -> Result<Milliseconds?, LineError> {
        guard let value else { return .success(nil) }
        return convert(value).map { $0 }
    }

    /// The asset list given as an object, or as text holding one; nil when absent.
    private static func assetList(_ value: AssetList.JSONValue?) -> Result<AssetList?, LineError> {
        let read: Result<AssetList, AssetList.ReadError>
        switch value {
        case nil, .null?: return .success(nil)
        case .text(let text)?: read = AssetList.read(Array(text.utf8))
        case let value?: read = AssetList.read(value)
        }
        return read.map { $0 }.mapError { LineError("assetList \($0.reason)") }
    }

    // MARK: The objects' keys

    private struct StartFields: Decodable {
        var id: String
        var start: Result<Milliseconds, LineError>?
        var position: Double?
        var resumeOffset: Double?
        var assetList: AssetList.JSONValue?

        private enum CodingKeys: String, CodingKey { case id, start, position, resumeOffset, assetList }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.interstitialID(forKey: .id)
            start = try Self.date(in: container, forKey: .start)
            position = try container.liberalNumber(forKey: .position, "must be a number of seconds")
            resumeOffset = try container.liberalNumber(forKey: .resumeOffset, "must be a number of seconds")
            assetList = try container.decodeIfPresent(AssetList.JSONValue.self, forKey: .assetList)
        }

        /// Epoch milliseconds as a number (or text holding one), or an ISO-8601 date; checked
        /// for range after reading, as a playhead is.
        private static func date(in container: KeyedDecodingContainer<CodingKeys>, forKey key: CodingKeys) throws -> Result<Milliseconds, LineError>? {
            let requirement = "must be epoch milliseconds or an ISO-8601 date"
            guard let text = try container.liberalText(forKey: key) else { return nil }
            if let number = Double(text.trimmedOfWhitespace) {
                guard number.isFinite else { throw container.refusal(key, requirement) }
                return milliseconds(number, name: "start")
            }
            guard let date = UTCTime.parse(text.trimmedOfWhitespace) else { throw container.refusal(key, requirement) }
            return milliseconds(Double(date), name: "start")
        }
    }

    private struct AssetFields: Decodable {
        var id: String
        var index: Int
        var uri: String?
        var duration: Double?

        private enum CodingKeys: String, CodingKey { case id, index, uri, duration }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.interstitialID(forKey: .id)
            index = try container.assetIndex(forKey: .index)
            uri = try container.liberalText(forKey: .uri)
            if let uri, uri.isEmpty || uri.utf8.count > AssetList.maxURIBytes {
                throw container.refusal(.uri, "must be text of 1 to \(AssetList.maxURIBytes) bytes")
            }
            duration = try container.liberalNumber(forKey: .duration, "must be a number of seconds")
        }
    }

    private struct TickFields: Decodable {
        var id: String
        var asset: Int
        var position: Double
        var at: Double?
        var rate: Double?
        var hasPlayhead: Bool

        private enum CodingKeys: String, CodingKey { case interstitial, asset, position, at, rate, playhead }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.interstitialID(forKey: .interstitial)
            asset = try container.assetIndex(forKey: .asset)
            guard let position = try container.liberalNumber(forKey: .position, "must be a number of seconds") else {
                throw container.missing(.position)
            }
            self.position = position
            at = try container.liberalNumber(forKey: .at, "must be epoch milliseconds")
            rate = try container.liberalNumber(forKey: .rate, "is not a finite non-negative number")
            hasPlayhead = container.contains(.playhead)
        }
    }

    private struct EndFields: Decodable {
        var id: String
        var reason: InterstitialEnd.Reason

        private enum CodingKeys: String, CodingKey { case id, reason }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.interstitialID(forKey: .id)
            guard let reason = try container.liberalChoice(InterstitialEnd.Reason.self, forKey: .reason) else { throw container.missing(.reason) }
            self.reason = reason
        }
    }
}

extension KeyedDecodingContainer {
    /// An interstitial's id, required: text (or a number, as text) of 1 to
    /// ``LineParser/maxInterstitialIDBytes`` bytes with no control or invisible formatting character.
    fileprivate func interstitialID(forKey key: Key) throws -> String {
        guard let id = try liberalText(forKey: key) else { throw missing(key) }
        let invisible: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse]
        guard !id.isEmpty, id.utf8.count <= LineParser.maxInterstitialIDBytes,
            !id.unicodeScalars.contains(where: { invisible.contains($0.properties.generalCategory) })
        else { throw refusal(key, "must be printable text of 1 to \(LineParser.maxInterstitialIDBytes) bytes") }
        return id
    }

    /// An asset's place in play order, required: a whole number from 0 below ``AssetList/maxAssets``.
    fileprivate func assetIndex(forKey key: Key) throws -> Int {
        let requirement = "must be a whole number from 0 to \(AssetList.maxAssets - 1)"
        guard let index = try liberalInteger(forKey: key, in: 0...Int64(AssetList.maxAssets - 1), requirement) else { throw missing(key) }
        return Int(index)
    }
}

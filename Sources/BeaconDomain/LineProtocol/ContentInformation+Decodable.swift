/// `{"id", "name", "length", "streamType", <metadata>...}`, from `load <url> {"content": {...}}`
/// and `content {...}` alike. `length` is in seconds, absent or `-1` for live; `streamType` is
/// `vod`, `live` or `linear`; the standard metadata keys go into `standardMetadata`, every other
/// key into `customMetadata`, each value as text (`"season": 3` reads "3"); `null` is absent.
extension ContentInformation: Decodable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        self.init()
        // Sorted, so that of two bad keys the same one is named every time.
        for key in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            switch key.stringValue {
            case "id": id = try container.liberalText(forKey: key)
            case "name": name = try container.liberalText(forKey: key)
            case "length": length = try Self.length(in: container, key)
            case "streamType": streamType = try container.liberalChoice(StreamType.self, forKey: key)
            case let name where Self.standardMetadataKeys.contains(name): standardMetadata[name] = try container.liberalText(forKey: key)
            default: customMetadata[key.stringValue] = try container.liberalText(forKey: key)
            }
        }
    }

    private static func length(in container: KeyedDecodingContainer<JSONKey>, _ key: JSONKey) throws -> Double? {
        let requirement = "must be a number of seconds, or -1 for live"
        guard let length = try container.liberalNumber(forKey: key, requirement), length != -1 else { return nil }
        guard length >= 0 else { throw container.refusal(key, requirement) }
        return length
    }
}

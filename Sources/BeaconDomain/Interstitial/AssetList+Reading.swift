#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reading an asset list: `{"ASSETS": [{"URI": "...", "DURATION": 30.0}, ...], "TRACKING": {...}}`,
/// the object RFC 8216bis (appendix D) has an `X-ASSET-LIST` answer with, liberally as players
/// read it: `ASSETS` missing, null or empty is no asset; a `DURATION` may be text (`"30.0"`), and
/// one that is absent or unusable (not a number, not above 0, over a day) is nil; a `URI` that is
/// not text, or longer than ``maxURIBytes``, is nil; every other key (`SKIP-CONTROL`,
/// `X-AD-CREATIVE-SIGNALING`...) is ignored. `TRACKING`, which MediaTailor adds for an SGAI session
/// in client-side reporting, is its tracking API's document, read by ``MediaTailorDocument/decode(_:)``
/// with its times as written; when it cannot be read, the list keeps its assets and says why.
extension AssetList {
    /// The largest asset list read, as large as a metadata document is likely to be.
    package static let maxBytes = 1 << 20
    /// The longest asset URI kept.
    package static let maxURIBytes = 8 * 1024
    /// An asset's place in play order is below this: an ad break of a thousand assets is not one.
    package static let maxAssets = 1_000

    /// Why an asset list cannot be read at all.
    package struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }

    /// The asset list `body` holds, or why not.
    package static func read(_ body: some Collection<UInt8>) -> Result<AssetList, ReadError> {
        guard body.count <= maxBytes else { return .failure(ReadError("larger than \(maxBytes >> 20) MiB")) }
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(body)) else { return .failure(ReadError("not JSON")) }
        return read(value)
    }

    /// The asset list an already decoded JSON value holds, or why not.
    static func read(_ value: JSONValue) -> Result<AssetList, ReadError> {
        guard case .object(let members) = value else { return .failure(ReadError("not a JSON object")) }
        var assets: [Asset] = []
        switch members["ASSETS"] {
        case nil, .null?: break
        case .array(let entries)?:
            guard entries.count <= maxAssets else { return .failure(ReadError("ASSETS lists more than \(maxAssets) assets")) }
            for (index, entry) in entries.enumerated() {
                guard case .object(let fields) = entry else { return .failure(ReadError("ASSETS[\(index)] must be an object")) }
                assets.append(Asset(uri: uri(fields["URI"]), duration: duration(fields["DURATION"])))
            }
        case .some:
            return .failure(ReadError("ASSETS must be an array of objects"))
        }
        var list = AssetList(assets: assets)
        switch members["TRACKING"] {
        case nil, .null?: break
        case let tracking?:
            do {
                list.tracking = try MediaTailorDocument.decode(try JSONEncoder().encode(tracking)).metadata
            } catch let error as MetadataError {
                list.trackingProblem = error.reason
            } catch {
                list.trackingProblem = "not JSON"
            }
        }
        return .success(list)
    }

    private static func uri(_ value: JSONValue?) -> String? {
        guard case .text(let text)? = value, text.utf8.count <= maxURIBytes else { return nil }
        return text
    }

    /// Seconds, as a number or as text, in milliseconds; nil when none is usable.
    private static func duration(_ value: JSONValue?) -> Milliseconds? {
        let seconds: Double? =
            switch value {
            case .integer(let integer)?: Double(integer)
            case .unsigned(let integer)?: Double(integer)
            case .number(let number)?: number
            case .text(let text)?: Double(text.trimmedOfWhitespace)
            default: nil
            }
        guard let seconds, seconds.isFinite, seconds > 0, seconds * 1000 <= Double(MetadataDocument.longestDuration) else { return nil }
        let milliseconds = Milliseconds((seconds * 1000).rounded())
        return milliseconds > 0 ? milliseconds : nil
    }

    /// Any JSON value, kept whole so that a part of it can be written again: `TRACKING` goes to
    /// MediaTailor's reader as the bytes of its own document. An integer stays exact (an id may be one).
    enum JSONValue: Sendable, Equatable, Codable {
        case null
        case bool(Bool)
        case integer(Int64)
        /// Above `Int64.max`.
        case unsigned(UInt64)
        case number(Double)
        case text(String)
        case array([JSONValue])
        case object([String: JSONValue])

        /// Objects and arrays first, then text: the forms a document holds most of, each miss a thrown error.
        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: JSONKey.self) {
                var members: [String: JSONValue] = [:]
                for key in object.allKeys { members[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
                self = .object(members)
            } else if var array = try? decoder.unkeyedContainer() {
                var elements: [JSONValue] = []
                while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
                self = .array(elements)
            } else {
                let container = try decoder.singleValueContainer()
                if container.decodeNil() { self = .null }
                else if let text = try? container.decode(String.self) { self = .text(text) }
                else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
                else if let integer = try? container.decode(Int64.self) { self = .integer(integer) }
                else if let integer = try? container.decode(UInt64.self) { self = .unsigned(integer) }
                else { self = .number(try container.decode(Double.self)) }
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .bool(let flag): try container.encode(flag)
            case .integer(let integer): try container.encode(integer)
            case .unsigned(let integer): try container.encode(integer)
            case .number(let number): try container.encode(number)
            case .text(let text): try container.encode(text)
            case .array(let array): try container.encode(array)
            case .object(let object): try container.encode(object)
            }
        }
    }
}

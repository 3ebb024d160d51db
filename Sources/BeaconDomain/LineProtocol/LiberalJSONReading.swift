#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the player-information JSON objects are read: liberally, as players build them from
/// whatever their SDK holds. A number may come as a string (`"2500000"`), text may come as a
/// number or a boolean (`"season": 3` reads "3"), a boolean may come as `"true"`/`"false"`,
/// and `null` reads as absent. What cannot be used (an object where text is expected, a number
/// that is not finite or is out of range) is refused with a reason naming the key.
extension KeyedDecodingContainer {
    /// Text, a number or a boolean as text; nil when absent or null.
    func liberalText(forKey key: Key) throws -> String? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let text = try? decode(String.self, forKey: key) { return text }
        if let flag = try? decode(Bool.self, forKey: key) { return flag ? "true" : "false" }
        // An integer first: an id of 19 digits stays exact.
        if let integer = try? decode(Int64.self, forKey: key) { return "\(integer)" }
        if let number = try? decode(Double.self, forKey: key) { return Self.text(of: number) }
        throw refusal(key, "must be text, a number or a boolean")
    }

    /// A finite number, or a string holding one; nil when absent or null.
    func liberalNumber(forKey key: Key, _ requirement: String = "must be a number") throws -> Double? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        let number: Double? =
            if let number = try? decode(Double.self, forKey: key) { number }
            else if let text = try? decode(String.self, forKey: key) { Double(text.trimmedOfWhitespace) }
            else { nil }
        guard let number, number.isFinite else { throw refusal(key, requirement) }
        return number
    }

    /// A whole number within `range`, as a number or a string; nil when absent or null.
    func liberalInteger(forKey key: Key, in range: ClosedRange<Int64>, _ requirement: String) throws -> Int64? {
        guard let number = try liberalNumber(forKey: key, requirement) else { return nil }
        guard number.rounded() == number, number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw refusal(key, requirement)
        }
        return Int64(number)
    }

    /// A number of at least 0, as a number or a string; nil when absent or null.
    func liberalNonNegative(forKey key: Key, _ requirement: String) throws -> Double? {
        guard let number = try liberalNumber(forKey: key, requirement) else { return nil }
        guard number >= 0 else { throw refusal(key, requirement) }
        return number
    }

    /// `true`/`false`, or those words as strings; nil when absent or null.
    func liberalBool(forKey key: Key) throws -> Bool? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        if let flag = try? decode(Bool.self, forKey: key) { return flag }
        switch try? decode(String.self, forKey: key) {
        case "true": return true
        case "false": return false
        default: throw refusal(key, "must be true or false")
        }
    }

    /// One of `Value`'s raw values, as written or in lower case; nil when absent or null.
    func liberalChoice<Value: RawRepresentable & CaseIterable>(_: Value.Type, forKey key: Key) throws -> Value?
    where Value.RawValue == String {
        guard let text = try liberalText(forKey: key) else { return nil }
        if let value = Value(rawValue: text) ?? Value(rawValue: text.lowercased()) { return value }
        throw refusal(key, "must be one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
    }

    /// A refusal of the value at `key`, whose description ``LineJSON`` shows after the key.
    func refusal(_ key: Key, _ requirement: String) -> DecodingError {
        .dataCorrupted(DecodingError.Context(codingPath: codingPath + [key], debugDescription: requirement))
    }

    /// A refusal for a key that must be given.
    func missing(_ key: Key) -> DecodingError {
        .keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "missing"))
    }

    /// A whole number without a fraction (`3`, not `3.0`), anything else as Swift writes it.
    private static func text(of number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? "\(Int64(number))" : "\(number)"
    }
}

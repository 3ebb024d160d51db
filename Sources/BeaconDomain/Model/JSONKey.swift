/// Any key of a JSON object: for objects whose keys are open (custom metadata, an asset list's
/// unknown keys).
struct JSONKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

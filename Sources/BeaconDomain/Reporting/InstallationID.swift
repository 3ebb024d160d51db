/// The box's installation id: 128 random bits as 32 lowercase hex digits, created once.
package enum InstallationID {
    package static func make(using random: inout some RandomNumberGenerator) -> String {
        let high = random.next() as UInt64
        let low = random.next() as UInt64
        return hex(high) + hex(low)
    }

    /// Whether `text` is an id this type made (a file edited by hand or cut short is not).
    package static func isValid(_ text: String) -> Bool {
        text.utf8.count == 32 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

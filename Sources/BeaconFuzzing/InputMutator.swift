import BeaconTesting
/// Mutates inputs as a fuzzer does, without coverage feedback: byte and bit changes, inserted,
/// deleted and duplicated ranges, splices with another input, dictionary tokens (numbers at the
/// edges, keywords), and the shapes that break parsers: deep nesting, huge runs, invalid UTF-8,
/// NUL and CR.
package struct InputMutator: Sendable {
    package var dictionary: FuzzDictionary
    /// Mutations stop growing an input past this many bytes: 16 KiB, as `make fuzz` tells
    /// libFuzzer. Lines longer than the limit are still made, against a tiny limit.
    package var maxLength: Int

    package init(dictionary: FuzzDictionary, maxLength: Int = 16 * 1024) {
        self.dictionary = dictionary
        self.maxLength = maxLength
    }

    /// Bytes that end or split lines and strings, or are never valid in UTF-8 at that place.
    static let specialBytes: [UInt8] = [0x00, 0x0A, 0x0D, 0x09, 0x20, 0x22, 0x5C, 0x7B, 0x7D, 0x5B, 0x5D, 0x2C, 0x3A, 0x80, 0xBF, 0xC0, 0xC3, 0xED, 0xF4, 0xF8, 0xFF]
    /// Byte sequences that are not UTF-8: a lone continuation, a truncated sequence, a surrogate, an overlong form, beyond U+10FFFF.
    static let invalidUTF8: [[UInt8]] = [[0x80], [0xC3], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]]

    /// One to four stacked mutations of `input`; `donor` is another input to splice from.
    package func mutate(_ input: [UInt8], donor: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            mutateOnce(&bytes, donor: donor, using: &generator)
            if bytes.count > maxLength { bytes.removeSubrange(maxLength...) }
        }
        return bytes
    }

    private func mutateOnce(_ bytes: inout [UInt8], donor: [UInt8], using generator: inout SeededGenerator) {
        let at = Int.random(in: 0...bytes.count, using: &generator)
        switch Int.random(in: 0..<13, using: &generator) {
        case 0 where !bytes.isEmpty:
            bytes[min(at, bytes.count - 1)] ^= 1 << UInt8.random(in: 0..<8, using: &generator)
        case 1 where !bytes.isEmpty:
            bytes[min(at, bytes.count - 1)] = Self.specialBytes.randomElement(using: &generator)!
        case 2:
            bytes.insert(contentsOf: (0..<Int.random(in: 1...8, using: &generator)).map { _ in UInt8.random(in: .min ... .max, using: &generator) }, at: at)
        case 3:
            bytes.removeSubrange(range(in: bytes.count, from: at, using: &generator))
        case 4:
            let copied = bytes[range(in: bytes.count, from: Int.random(in: 0...bytes.count, using: &generator), using: &generator)]
            bytes.insert(contentsOf: Array(copied), at: at)
        case 5 where !dictionary.tokens.isEmpty:
            bytes.insert(contentsOf: dictionary.tokens.randomElement(using: &generator)!, at: at)
        case 6 where !dictionary.tokens.isEmpty:
            let token = dictionary.tokens.randomElement(using: &generator)!
            bytes.replaceSubrange(at..<min(at + token.count, bytes.count), with: token)
        case 7 where !dictionary.tokens.isEmpty:
            replaceNumber(in: &bytes, near: at, using: &generator)
        case 8:
            // Splice: this input up to a point, then the donor from another.
            let cut = Int.random(in: 0...donor.count, using: &generator)
            bytes = Array(bytes[..<at]) + donor[cut...]
        case 9:
            let piece = donor[range(in: donor.count, from: Int.random(in: 0...donor.count, using: &generator), using: &generator)]
            bytes.insert(contentsOf: Array(piece), at: at)
        case 10:
            let opener: [UInt8] = Bool.random(using: &generator) ? Array("[".utf8) : Array(#"{"a":"#.utf8)
            bytes.insert(contentsOf: Self.repeated(opener, count: Int.random(in: 1...4_000, using: &generator)), at: at)
        case 11:
            let unit: [UInt8] = Bool.random(using: &generator) ? [UInt8.random(in: 0x20...0x7E, using: &generator)] : Array("\u{1F600}".utf8)
            // Mostly short; sometimes up to the whole length an input may have.
            let count = Int.random(in: 1...(Int.random(in: 0..<4, using: &generator) == 0 ? maxLength : 100), using: &generator)
            bytes.insert(contentsOf: Self.repeated(unit, count: count), at: at)
        default:
            bytes.insert(contentsOf: Self.invalidUTF8.randomElement(using: &generator)!, at: at)
        }
    }

    private static func repeated(_ unit: [UInt8], count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(unit.count * count)
        for _ in 0..<count { bytes.append(contentsOf: unit) }
        return bytes
    }

    /// A short range starting at `start`, inside `0..<count`.
    private func range(in count: Int, from start: Int, using generator: inout SeededGenerator) -> Range<Int> {
        let length = Int.random(in: 0...min(count - start, 64), using: &generator)
        return start..<(start + length)
    }

    /// Replaces the run of number characters at or after `position` with a dictionary token.
    private func replaceNumber(in bytes: inout [UInt8], near position: Int, using generator: inout SeededGenerator) {
        let isNumeric: (UInt8) -> Bool = { (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
        guard let start = bytes[position...].firstIndex(where: isNumeric) else { return }
        let end = bytes[start...].firstIndex { !isNumeric($0) } ?? bytes.count
        bytes.replaceSubrange(start..<end, with: dictionary.tokens.randomElement(using: &generator)!)
    }
}

/// A property found broken: everything needed to see why and to replay it.
package struct FuzzFailure: Error, Sendable, CustomStringConvertible {
    package var target: FuzzTarget
    package var seed: UInt64
    /// The failing input's place in the run: below the number of seeds, a seed as it is.
    package var iteration: Int
    /// The seed's name when the input is a seed as it is.
    package var seedName: String?
    package var input: [UInt8]
    package var violation: PropertyViolation

    package var description: String {
        let source = seedName.map { "seed file \($0)" } ?? "iteration \(iteration)"
        return "\(violation)\n  target \(target), seed \(seed), \(source); replay with FUZZ_SEED=\(seed)"
            + "\n  input (\(input.count) bytes): \(Self.escaped(input.prefix(600)))"
    }

    /// Printable ASCII as it is, every other byte as `\xNN`, for a message that shows the input exactly.
    package static func escaped(_ bytes: some Collection<UInt8>) -> String {
        var text = ""
        for byte in bytes {
            if (0x20...0x7E).contains(byte) && byte != UInt8(ascii: "\\") {
                text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return text
    }
}

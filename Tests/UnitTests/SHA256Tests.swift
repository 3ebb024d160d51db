import BeaconDomain
import Testing

/// SHA-256 and HMAC-SHA256 against the published vectors (FIPS 180-2 examples, RFC 4231) and
/// around the padding's block boundaries.
@Suite(.timeLimit(.minutes(2))) struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func digestsThePublishedExamples(message: String, digest: String) {
        #expect(Self.hex(SHA256.digest(Array(message.utf8))) == digest)
    }

    /// The length field fits in the last block up to 55 bytes; from 56 on it takes another block.
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (63, "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (65, "635361c48bb9eab14198e76ea8ab7f1a41685d6ad62aa9146d301d4f17eb0ae0"),
        (119, "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        (120, "2f3d335432c70b580af0e8e1b3674a7c020d683aa5f73aaaedfdc55af904c21c"),
    ])
    func padsAroundBlockBoundaries(length: Int, digest: String) {
        #expect(Self.hex(SHA256.digest([UInt8](repeating: UInt8(ascii: "a"), count: length))) == digest)
    }

    @Test(arguments: [
        // RFC 4231 test cases 1, 2 and 6 (a key longer than a block is hashed first).
        ([UInt8](repeating: 0x0b, count: 20), "Hi There", "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
        (Array("Jefe".utf8), "what do ya want for nothing?", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        (
            [UInt8](repeating: 0xaa, count: 131), "Test Using Larger Than Block-Size Key - Hash Key First",
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        ),
    ])
    func authenticatesTheRFC4231Cases(key: [UInt8], message: String, mac: String) {
        #expect(Self.hex(SHA256.hmac(key: key, message: Array(message.utf8))) == mac)
    }
}

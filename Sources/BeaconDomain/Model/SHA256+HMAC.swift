extension SHA256 {
    /// HMAC-SHA256 (RFC 2104) of `message` under `key`: what systemd's application-specific
    /// machine ids are made of.
    package static func hmac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > blockBytes ? digest(key) : key
        block += [UInt8](repeating: 0, count: blockBytes - block.count)
        let inner = digest(block.map { $0 ^ 0x36 } + message)
        return digest(block.map { $0 ^ 0x5c } + inner)
    }
}

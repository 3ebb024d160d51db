/// An id of the box for one use, stable across reboots and reinstalls, yet never the machine id
/// itself, which systemd asks applications to keep private: the heartbeat's device id, the
/// telemetry's `service.instance.id`.
///
/// It is systemd's application-specific id (`sd_id128_get_machine_app_specific`): HMAC-SHA256
/// keyed with the machine id's 16 bytes over an application id, cut to 16 bytes and marked as a
/// version 4 UUID. One-way, and a different id than any other application derives from the same
/// box, so it cannot be joined with them. `systemd-id128 machine-id --app-specific=<applicationID>`
/// prints the same id.
package enum MachineAppSpecificID {
    /// The application id of `name`: the first 16 bytes of its SHA-256.
    package static func applicationID(_ name: String) -> [UInt8] {
        Array(SHA256.digest(Array(name.utf8)).prefix(16))
    }

    /// The heartbeat's application: its ids are those earlier releases sent.
    package static let heartbeat = "beaconctl-heartbeat"

    /// The id of application `name` derived from the text of `/etc/machine-id` (32 hex digits and
    /// a newline), as 32 lowercase hex digits; nil when the text is no machine id (empty,
    /// `uninitialized`, all zeros).
    package static func derived(fromMachineID text: String, application name: String) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace)
        guard words.count == 1, let machineID = bytes(ofHex: words[0]), machineID.count == 16, machineID.contains(where: { $0 != 0 })
        else { return nil }
        var id = Array(SHA256.hmac(key: machineID, message: applicationID(name)).prefix(16))
        id[6] = id[6] & 0x0F | 0x40
        id[8] = id[8] & 0x3F | 0x80
        return hex(id)
    }

    /// The application id as `systemd-id128 --app-specific=` takes it.
    package static func applicationIDHex(_ name: String) -> String { hex(applicationID(name)) }

    private static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    private static func bytes(ofHex text: Substring) -> [UInt8]? {
        let nibbles = text.utf8.map { character -> UInt8? in
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        guard nibbles.count.isMultiple(of: 2), !nibbles.contains(nil) else { return nil }
        let values = nibbles.compactMap { $0 }
        return stride(from: 0, to: values.count, by: 2).map { values[$0] << 4 | values[$0 + 1] }
    }
}

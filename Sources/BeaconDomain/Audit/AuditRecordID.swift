/// The stable id of an audit record: the first 16 bytes of the SHA-256 of what identifies the step,
/// in hex. The same step gives the same id after a restart, so a back end drops the duplicates
/// that a crash between an export's answer and its outbox's update can cause.
package enum AuditRecordID {
    package static func of(_ kind: AuditRecord.Kind, _ parts: [String]) -> String {
        // A unit separator between parts: no two different lists join to the same text.
        let text = ([kind.rawValue] + parts).joined(separator: "\u{1F}")
        return SHA256.digest(Array(text.utf8)).prefix(16).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// The parts that name one delivery: its key, whole.
    package static func parts(of key: BeaconDelivery.Key) -> [String] {
        [key.sessionKey, key.adBreakID, key.adID, key.event.rawValue, String(key.eventStart), key.url, String(key.occurrence)]
    }
}

/// What a session's times are counted on: every time of the metadata, every playhead and every
/// played stretch of one session is on one timeline.
public enum Timeline: String, Sendable, Equatable, Codable {
    /// Program date time: epoch milliseconds, as live HLS streams carry in
    /// `EXT-X-PROGRAM-DATE-TIME` (the Harmonic dialect's live documents).
    case programDateTime
    /// Media time: milliseconds from the start of the stream, as a VOD or DASH player's position
    /// reads (MediaTailor's `startTimeInSeconds`, a Harmonic VOD document).
    case mediaTime
}

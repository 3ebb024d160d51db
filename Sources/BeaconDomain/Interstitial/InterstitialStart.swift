/// `interstitial-start`: an interstitial event (an `EXT-X-DATERANGE` of class
/// `com.apple.hls.interstitial`) begins; the main player has stopped at its date.
package struct InterstitialStart: Sendable, Equatable {
    /// The date range's `ID`.
    package var id: String
    /// Its `START-DATE`, epoch ms: the place on a program-date-time session.
    package var start: Milliseconds?
    /// Its place on media time, ms (a VOD player gives a position rather than a date).
    package var position: Milliseconds?
    /// Where the main content resumes after it, relative to its place (`X-RESUME-OFFSET`), ms.
    package var resumeOffset: Milliseconds?
    /// The asset list as the player received it (`X-ASSET-LIST`); nil when not sent (a restart
    /// sends none: the journal keeps what was read of it).
    package var assetList: AssetList?

    package init(id: String, start: Milliseconds? = nil, position: Milliseconds? = nil, resumeOffset: Milliseconds? = nil, assetList: AssetList? = nil) {
        self.id = id
        self.start = start
        self.position = position
        self.resumeOffset = resumeOffset
        self.assetList = assetList
    }
}

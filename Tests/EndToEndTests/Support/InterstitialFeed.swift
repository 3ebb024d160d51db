import BeaconDomain

/// The lines an interstitial-capable player writes on a synthetic wall clock, beside a main
/// `TickFeed`: no player that implements HLS interstitials runs here, so the tests script its lines.
struct InterstitialFeed {
    var main: TickFeed
    private(set) var id = ""
    private(set) var asset = 0
    private(set) var position: Milliseconds = 0

    /// With `positions`, the main ticks are media-time positions (a VOD).
    init(from playhead: Milliseconds, positions: Bool = false) {
        main = TickFeed(from: playhead, positions: positions)
    }

    /// `interstitial-start` at the main playhead's date (or `position` on media time), with an asset list body.
    mutating func start(_ id: String, start: Milliseconds? = nil, position: Milliseconds? = nil, assetList: String? = nil) {
        self.id = id
        var members = [#""id": "\#(id)""#]
        if let start { members.append(#""start": \#(start)"#) }
        if let position { members.append(#""position": \#(TickFeed.seconds(position))"#) }
        if let assetList { members.append(#""assetList": \#(assetList)"#) }
        main.line("interstitial-start {\(members.joined(separator: ", "))}")
    }

    /// `interstitial-asset` for asset `index`, `duration` ms long (nil: the asset list's).
    mutating func asset(_ index: Int, duration: Milliseconds? = 12_000) {
        asset = index
        position = 0
        main.wait(250)
        let length = duration.map { #", "duration": \#(TickFeed.seconds($0))"# } ?? ""
        main.line(#"interstitial-asset {"id": "\#(id)", "index": \#(index), "uri": "http://127.0.0.1:9/ad\#(index).m3u8"\#(length)}"#)
    }

    /// Ticks the asset every 250 ms of position and clock up to `end`.
    mutating func play(to end: Milliseconds) {
        while position < end {
            position = min(position + 250, end)
            main.wait(250)
            main.line(#"{"interstitial": "\#(id)", "asset": \#(asset), "position": \#(TickFeed.seconds(position))}"#)
        }
    }

    mutating func end(_ reason: InterstitialEnd.Reason) {
        main.line(#"interstitial-end {"id": "\#(id)", "reason": "\#(reason.rawValue)"}"#)
    }

    mutating func takeLines() -> [String] { main.takeLines() }
}

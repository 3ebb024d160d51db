import BeaconDomain
import BeaconRuntime

/// A player at the live edge: a playhead tick every 250 ms at 1x, with a pause and a mute
/// two seconds into the ad break's first ad, then a resume. With `interstitials`, it plays the ad
/// break as an HLS interstitial: the main player stops at its date and a second one plays one
/// asset per ad, telling the daemon with the `interstitial-*` lines, then the main player resumes
/// at the live edge.
package struct SimulatedPlayer: Sendable {
    package var adBreak: AdBreak
    package var interstitials = false
    package var tickInterval: Milliseconds = 250
    package var now: @Sendable () -> Milliseconds = WallClock.now

    package init(adBreak: AdBreak, interstitials: Bool = false) {
        self.adBreak = adBreak
        self.interstitials = interstitials
    }

    /// The interstitial's id: its date range's.
    package static let interstitialID = "demo-interstitial"

    /// Plays until the wall clock reaches `end`, handing each input line to `send`.
    package func play(until end: Milliseconds, send: @Sendable (String) async -> Void) async {
        let pauseAt = adBreak.startTime + 2000
        let resumeAt = pauseAt + 1500
        var paused = false
        var resumed = false
        // While paused the playhead stays put; afterwards it trails the live edge by the pause.
        var offset: Milliseconds = 0
        var interstitial = InterstitialProgress()
        while !Task.isCancelled {
            let time = now()
            if time >= end { return }
            if !paused, time >= pauseAt {
                paused = true
                await send("pause")
                await send("mute")
            } else if paused, !resumed, time >= resumeAt {
                resumed = true
                offset = resumeAt - pauseAt
                await send("play")
                await send("unmute")
            }
            let playhead = paused && !resumed ? pauseAt : time - offset
            if interstitials, playhead >= adBreak.startTime, !interstitial.ended {
                await interstitial.advance(to: playhead, in: adBreak, at: time, send: send)
            } else {
                await send(#"{"playhead": \#(playhead), "at": \#(time)}"#)
            }
            try? await Task.sleep(for: .milliseconds(tickInterval))
        }
    }
}

/// Where the simulated interstitial player is: which asset (one per ad of the ad break) it plays.
private struct InterstitialProgress {
    var started = false
    var asset: Int?
    var ended = false

    mutating func advance(to playhead: Milliseconds, in adBreak: AdBreak, at time: Milliseconds, send: @Sendable (String) async -> Void) async {
        let id = SimulatedPlayer.interstitialID
        if !started {
            started = true
            await send(#"interstitial-start {"id": "\#(id)", "start": \#(adBreak.startTime)}"#)
        }
        guard let index = adBreak.ads.lastIndex(where: { $0.startTime <= playhead }), playhead < adBreak.endTime else {
            ended = true
            await send(#"interstitial-end {"id": "\#(id)", "reason": "completed"}"#)
            return
        }
        let ad = adBreak.ads[index]
        if asset != index {
            asset = index
            await send(#"interstitial-asset {"id": "\#(id)", "index": \#(index), "uri": "https://ads.demo.example/\#(ad.id).m3u8", "duration": \#(Double(ad.duration) / 1000)}"#)
        }
        let position = Double(playhead - ad.startTime) / 1000
        await send(#"{"interstitial": "\#(id)", "asset": \#(index), "position": \#(position), "at": \#(time)}"#)
    }
}

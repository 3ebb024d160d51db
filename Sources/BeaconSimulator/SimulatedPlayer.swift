import BeaconDomain
import BeaconRuntime

/// A player at the live edge: a playhead tick every 250 ms at 1x, with a pause and a mute
/// two seconds into the ad break's first ad, then a resume.
package struct SimulatedPlayer: Sendable {
    package var adBreak: AdBreak
    package var tickInterval: Milliseconds = 250
    package var now: @Sendable () -> Milliseconds = WallClock.now

    package init(adBreak: AdBreak) {
        self.adBreak = adBreak
    }

    /// Plays until the wall clock reaches `end`, handing each input line to `send`.
    package func play(until end: Milliseconds, send: @Sendable (String) async -> Void) async {
        let pauseAt = adBreak.startTime + 2000
        let resumeAt = pauseAt + 1500
        var paused = false
        var resumed = false
        // While paused the playhead stays put; afterwards it trails the live edge by the pause.
        var offset: Milliseconds = 0
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
            await send(#"{"playhead": \#(playhead), "at": \#(time)}"#)
            try? await Task.sleep(for: .milliseconds(tickInterval))
        }
    }
}

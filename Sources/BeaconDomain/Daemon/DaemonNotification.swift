/// Something the daemon did, as it happens: the one stream that the event history, metrics,
/// systemd status, the demo's screen and tests all read, each a subscriber of the
/// ``DaemonNotificationHub``.
package enum DaemonNotification: Sendable {
    /// Session init began for this stream.
    case sessionStarting(mediaURL: String)
    case sessionReady(SessionEndpoints)
    case sessionFailed(mediaURL: String, reason: String)
    /// The session ended: unload, a new load, or the drain.
    case sessionEnded(sessionID: String?)
    /// A metadata document was decoded and merged.
    case metadataApplied(adBreaks: Int, dataRange: DataRange, bytes: Int)
    /// The metadata just applied named ad breaks new to this session: their ad break ids, each once.
    case adBreaksDiscovered(adBreakIDs: [String])
    /// A metadata refresh brought the same body as the last one.
    case metadataUnchanged(bytes: Int)
    /// A metadata request failed or brought a rejected document; the previous state is kept.
    case metadataFailed(reason: String)
    /// A `load` asked for a playback: its URL and what the player gave with it (content, heartbeat).
    case playbackLoaded(mediaURL: String, options: LoadOptions)
    /// The session accepted a tick: the playhead, the content position and the ad placement.
    case playheadObserved(PlayheadObservation)
    /// The player's state changed (play, pause, seek, buffering, rate, complete).
    case playerEventObserved(PlayerEvent)
    /// The viewer acted on the ad (mute, expand, skip...).
    case userActionObserved(UserAction)
    /// The player told what it knows: content, chapters, quality, errors, states, consent.
    case playerInformed(PlayerInformation)
    /// The playhead entered or left an ad break or ad.
    case adLifecycle(AdLifecycleEvent)
    /// An interstitial began (or resumed, after a restart): the main player stopped at its place.
    case interstitialStarted(InterstitialState)
    /// An interstitial ended, and why.
    case interstitialEnded(InterstitialState, reason: InterstitialEnd.Reason)
    /// The heartbeat told the player something (a stop, a blackout, a live event).
    case playerNotified(PlayerNotification)
    /// A VOD playback's heartbeats failed this many times in a row (at `max-allowed-failures`); it goes on.
    case heartbeatFailing(failuresInARow: Int, reason: String)
    /// An input line was refused.
    case lineRejected(reason: String)
    /// A tracking event became due: its signaling URLs are about to be requested.
    case beaconsDue(Firing)
    /// A fired tracking event finished: every signaling URL's result and the event's new reporting state.
    case beaconsDelivered(Firing, results: [RequestResult], state: ReportingState)
    /// A request of this delivery did not deliver; it is due again at its `nextAttemptAt`.
    case beaconRetrying(BeaconDelivery)
    /// Shutdown began; this many beacon requests were in flight.
    case drainStarted(inFlight: Int)
    /// The drain timeout passed with this many beacon requests still in flight; they were cancelled and stay due.
    case drainTimedOut(inFlight: Int)
}

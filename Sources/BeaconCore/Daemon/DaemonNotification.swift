/// Something the daemon did, for whoever watches it closely (the demo's screen, tests).
public enum DaemonNotification: Sendable {
    case sessionReady(SessionEndpoints)
    case sessionFailed(mediaURL: String, reason: String)
    case metadataApplied(pods: Int, dataRange: DataRange)
    /// A fired tracking event finished: every signaling URL's result and the event's new reporting state.
    case beaconsDelivered(Firing, results: [BeaconSender.Result], state: ReportingState)
}

import BeaconDomain
import BeaconTesting
import BeaconRuntime

/// A tracking session fed by a fuzz target, checking after every step what any session must
/// guarantee whatever it is fed: a playback event fires at most once, a user event only while
/// the playhead lies in its ad, an event of unknown type never, and every firing names an event
/// of the schedule, now `connecting`.
struct SessionProbe {
    private(set) var session: TrackingSession
    /// Playback events fired so far.
    private(set) var firedOnce: Set<EventReference> = []

    init(retention: Milliseconds = 7_200_000) {
        session = TrackingSession(retention: retention)
    }

    mutating func apply(_ document: MetadataDocument) throws(PropertyViolation) {
        try record(session.apply(document), after: "metadata")
    }

    mutating func observe(_ tick: PlayheadTick, arrivalTime: Milliseconds) throws(PropertyViolation) {
        try record(session.observe(tick, arrivalTime: arrivalTime), after: "tick \(tick)")
    }

    mutating func observe(_ event: PlayerEvent, arrivalTime: Milliseconds) throws(PropertyViolation) {
        try record(session.observe(event, arrivalTime: arrivalTime), after: "player event \(event)")
    }

    mutating func observe(_ action: UserAction) throws(PropertyViolation) {
        try record(session.observe(action), after: "user action \(action)")
    }

    private mutating func record(_ firings: [Firing], after step: @autoclosure () -> String) throws(PropertyViolation) {
        for firing in firings {
            let event = session.schedule[firing.reference]
            try PropertyViolation.require(
                event?.event == firing.event && event?.signalingURLs == firing.signalingURLs,
                "a firing names an event of the schedule", "\(firing) after \(step()) names \(String(describing: event))")
            try PropertyViolation.require(
                event?.reportingState == .connecting, "a fired event is connecting",
                "\(firing) after \(step()) is \(String(describing: event?.reportingState))")
            switch firing.event.trigger {
            case .playback:
                try PropertyViolation.require(
                    firedOnce.insert(firing.reference).inserted, "a playback event fires at most once",
                    "\(firing) fired again after \(step())")
            case .impression:
                try PropertyViolation.require(
                    firedOnce.insert(firing.reference).inserted, "a verificationNotExecuted fires at most once",
                    "\(firing) fired again after \(step())")
                let impressions = session.schedule.ad(containing: firing.reference)?.trackingEvents.filter { $0.event == .impression }
                try PropertyViolation.require(
                    impressions?.contains { $0.reportingState != .idle } == true,
                    "a verificationNotExecuted fires only with its ad's impression", "\(firing) after \(step())")
            case .userAction:
                let ad = session.schedule.ad(containing: firing.reference)
                let playhead = session.judge.lastPlayhead
                try PropertyViolation.require(
                    playhead.map { ad?.actionWindow.contains($0) == true } == true,
                    "a user event fires only while the playhead lies in its ad",
                    "\(firing) after \(step()) at playhead \(String(describing: playhead)), ad \(String(describing: ad?.actionWindow))")
            case .unknown:
                throw PropertyViolation(property: "an event of unknown type never fires", details: "\(firing) after \(step())")
            }
        }
    }
}

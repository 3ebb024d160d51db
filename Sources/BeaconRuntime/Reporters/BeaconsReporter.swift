import BeaconDomain
import Logging

/// The `beacons` reporter: the daemon fires and delivers the ad beacons; this is their switch and
/// what status shows of their requests.
///
/// Disabled, the tracking events that fire are handled as in quiet mode: their signaling URLs are
/// not requested, each result is `not sent` and the event's reporting state is `done`, so nothing
/// fired while disabled is sent late once enabled again. Requests already under way finish.
package typealias BeaconsReporter = ReporterRunner<BeaconsEdge>

extension ReporterRunner where Edge == BeaconsEdge {
    package init(quiet: Bool, time: TimeSource, random: any RandomNumberGenerator & Sendable, logger: Logger) {
        self.init(
            core: BeaconsReporting(), edge: BeaconsEdge(), time: time, random: random, logger: logger, drainTimeout: .zero, quiet: quiet,
            publish: { _ in })
    }
}

/// Nothing to carry out: the daemon sends the beacons.
package struct BeaconsEdge: ReporterEdge {
    package var name: ReporterName { .beacons }

    package func perform(_ effect: Never, quiet: Bool) async -> Performed<Never> {}

    /// `quiet` is shown only: the daemon's configuration is what keeps the beacons quiet.
    package func status(of core: BeaconsReporting, enabled: Bool, quiet: Bool, draining: Bool, wallOffset: Milliseconds) -> ReporterStatus {
        core.activity.status(enabled: enabled, quiet: quiet)
    }
}

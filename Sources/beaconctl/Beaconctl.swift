import ArgumentParser
import BeaconDomain
import BeaconRuntime
import BeaconTerminal

@main
struct Beaconctl: AsyncParsableCommand {
    /// The release numbers are set here; the commit is baked in at build time (scripts/build-commit.sh).
    static let release = ReleaseVersion(major: 0, minor: 2, micro: 0, patch: 0, commit: BuildCommit.hash)
    static let version = release.description

    static let configuration = CommandConfiguration(
        commandName: "beaconctl",
        abstract: "Client-side ad beaconing for server-side ad insertion.",
        discussion: """
            beaconctl runs beside a video player. It starts a session at the ad-insertion service, polls \
            the session's ad-tracking metadata, reads the player's playhead and events as lines on stdin \
            or a Unix control socket, and requests each tracking event's signaling URLs when the ad is \
            played: once for impressions, starts and quartiles, on every action for pause, mute, click...

            Try 'beaconctl demo' first: it needs no network.
            """,
        version: release.versionLine,
        subcommands: [
            RunCommand.self, StatusCommand.self, EventsCommand.self, AuditCommand.self, WatchCommand.self, SendCommand.self,
            ConfigCommand.self, DemoCommand.self,
        ]
    )
}

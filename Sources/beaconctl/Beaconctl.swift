import ArgumentParser
import BeaconCore

@main
struct Beaconctl: AsyncParsableCommand {
    static let version = "0.1.0"

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
        version: "\(version) (API level \(StatusReport.currentAPILevel))",
        subcommands: [RunCommand.self, StatusCommand.self, SendCommand.self, ConfigCommand.self, DemoCommand.self]
    )
}

import BeaconDomain

extension DaemonRuntime {
    /// The reporters `settings` configure, besides `beacons`, each to be built by the runtime with
    /// an HTTP client of its own.
    package static func reporters(configuredBy settings: Settings) -> [ReporterFactory] {
        var factories: [ReporterFactory] = []
        if settings.mediaAnalytics.isConfigured {
            let analytics = settings.mediaAnalytics
            let (quiet, debugTracking) = (settings.quiet, settings.debugTracking)
            factories.append { context in
                MediaAnalyticsReporter(
                    settings: analytics, version: context.version, state: context.state, http: context.client,
                    time: context.time, random: context.random, logger: context.logger, drainTimeout: context.drainTimeout, quiet: quiet,
                    debugTracing: debugTracking, publish: context.publish)
            }
        }
        if settings.heartbeat.isConfigured {
            let heartbeat = settings.heartbeat
            let quiet = settings.quiet
            // Read once, at the edge; only its derivation is sent, never the machine id.
            let machineID = MachineID.text()
            factories.append { context in
                HeartbeatReporter(
                    settings: heartbeat, deviceID: heartbeat.effectiveDeviceID(machineID: machineID) ?? context.state.installationID(),
                    client: context.client, time: context.time, random: context.random, logger: context.logger,
                    drainTimeout: context.drainTimeout,
                    bookmarks: context.bookmarks, quiet: quiet, publish: context.publish)
            }
        }
        return factories
    }
}

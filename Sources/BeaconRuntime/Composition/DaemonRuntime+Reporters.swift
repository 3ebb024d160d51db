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
        // Read once, at the edge; only its derivations are sent, never the machine id.
        let machineID = settings.heartbeat.isConfigured || settings.telemetry.isConfigured ? MachineID.text() : nil
        if settings.heartbeat.isConfigured {
            let heartbeat = settings.heartbeat
            let quiet = settings.quiet
            factories.append { context in
                HeartbeatReporter(
                    settings: heartbeat, deviceID: heartbeat.effectiveDeviceID(machineID: machineID) ?? context.state.installationID(),
                    client: context.client, time: context.time, random: context.random, logger: context.logger,
                    drainTimeout: context.drainTimeout,
                    bookmarks: context.bookmarks, quiet: quiet, publish: context.publish)
            }
        }
        if settings.telemetry.isConfigured {
            let (telemetry, instance, quiet) = (settings.telemetry, settings.instance, settings.quiet)
            let instanceID = machineID.flatMap {
                MachineAppSpecificID.derived(fromMachineID: $0, application: TelemetryResource.application(instance: instance))
            }
            let machine = HostMachine.architecture()
            factories.append { context in
                TelemetryReporter(
                    settings: telemetry, version: context.version, instance: instance,
                    instanceID: instanceID ?? context.state.installationID(), machine: machine, sources: context.telemetry,
                    client: context.client, time: context.time, random: context.random, logger: context.logger,
                    drainTimeout: context.drainTimeout, quiet: quiet)
            }
        }
        return factories
    }
}

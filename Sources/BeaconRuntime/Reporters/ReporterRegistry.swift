import BeaconDomain

/// Every reporter the daemon runs, by name: what `reporter enable|disable|list`, `status` and the
/// metrics reach them through. The composition root builds the configured ones; a reporter not
/// built is listed as not configured.
package struct ReporterRegistry: Sendable {
    private let reporters: [ReporterName: any Reporter]

    package init(_ reporters: [any Reporter]) {
        self.reporters = Dictionary(reporters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// What the hub tells, in ``ReporterName`` order.
    package var subscribers: [any DaemonNotificationSubscriber] {
        reporters.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Runs every reporter until each has finished (after the daemon's last notification).
    package func run() async {
        await withDiscardingTaskGroup { group in
            for reporter in reporters.values {
                group.addTask { await reporter.run() }
            }
        }
    }

    /// Every reporter's status, configured or not, in ``ReporterName`` order.
    package func statuses() async -> [ReporterStatus] {
        var statuses: [ReporterStatus] = []
        for name in ReporterName.allCases {
            if let reporter = reporters[name] {
                statuses.append(await reporter.status())
            } else {
                statuses.append(ReporterStatus(name: name, configured: false, enabled: false, state: "not configured"))
            }
        }
        return statuses
    }

    /// Answers `reporter list` with every status, `reporter enable|disable NAME` with that one's
    /// status once switched; a reporter not configured cannot be enabled.
    package func perform(_ command: ReporterCommand) async -> String {
        switch command {
        case .list:
            return ReporterList(reporters: await statuses()).jsonLine()
        case .enable(let name), .disable(let name):
            guard let reporter = reporters[name] else {
                return ControlReply.errorLine("reporter \(name.rawValue) is not configured: set endpoint in [\(name.rawValue)]")
            }
            await reporter.setEnabled(command == .enable(name))
            return JSONLine.encode(await reporter.status())
        }
    }

    /// `--quiet` and its reload, for every reporter.
    package func setQuiet(_ quiet: Bool) async {
        for reporter in reporters.values { await reporter.setQuiet(quiet) }
    }
}

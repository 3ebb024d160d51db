extension ReportingState {
    /// The reporting state each tracking event is left in by its deliveries, across firings and
    /// restarts: the latest firing of an event (its highest occurrence) decides.
    package static func ofLatestFirings(_ deliveries: some Sequence<BeaconDelivery>) -> [EventReference: ReportingState] {
        Dictionary(grouping: deliveries, by: \.reference).mapValues { group in
            let occurrence = group.map(\.key.occurrence).max()
            return ReportingState(deliveries: group.filter { $0.key.occurrence == occurrence })
        }
    }
}

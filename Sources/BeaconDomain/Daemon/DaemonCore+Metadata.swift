/// The session's metadata refreshes: each round begins here, and what it came to is applied here,
/// firing what the new schedule says was played, logged and told in the order it happened.
extension DaemonCore {
    /// A metadata refresh of the session of `generation` begins; nil once that session ended.
    package mutating func beginMetadataRefresh(generation: Int) -> DaemonStep<MetadataRound?> {
        step { core in
            guard core.supervisor.isCurrent(generation), let endpoints = core.session?.endpoints else { return nil }
            return core.session?.metadata.begin(trackingURL: endpoints.trackingURL, dialect: endpoints.dialect)
        }
    }

    /// A metadata request leaves.
    package mutating func metadataRequested() -> DaemonStep<Void> {
        step { $0.counters.metadataFetches += 1 }
    }

    /// Takes what a refresh came to; answers when the next is due, nil once the session ended.
    package mutating func metadataRefreshed(
        _ round: MetadataRound, _ outcome: MetadataRound.Outcome, generation: Int, now: Milliseconds, wallNow: Milliseconds
    ) -> DaemonStep<Milliseconds?> {
        step { core in
            // The session is the supervisor's, reached through an accessor: the generator goes in as a copy.
            var random = core.random
            defer { core.random = random }
            guard core.supervisor.isCurrent(generation),
                let refreshed = core.session?.refreshed(by: round, outcome, now: now, wallNow: wallNow, using: &random)
            else { return nil }
            var firings: [Firing] = []
            switch refreshed.result {
            case .applied(_, _, _, let fired):
                firings = fired
                core.pruneJournal(now: now)
                core.auditRetired(wallNow: wallNow)
            case .failed(let reason, _):
                core.counters.metadataErrors += 1
                core.lastError = "metadata: \(reason)"
            case .unchanged:
                break
            }
            core.tell(refreshed, of: round, outcome, now: now)
            core.dispatch(firings, now: now, wallNow: wallNow)
            core.saveSnapshot(now: now)
            core.perform(core.supervisor.metadataAttempted(generation: generation))
            return refreshed.nextRefreshAt
        }
    }

    /// Logs and tells the outputs what a refresh came to, in the order it happened; the tracking
    /// events it fired are dispatched after.
    private mutating func tell(_ refreshed: ActiveSession.Refreshed, of round: MetadataRound, _ outcome: MetadataRound.Outcome, now: Milliseconds) {
        if let first = round.firstAnswer {
            log(.metadata, .debug, "metadata received status=\(first.status) bytes=\(first.bytes) url=\(round.trackingURL)")
        }
        if let dialect = refreshed.dialectDecided {
            log(.metadata, .info, "dialect decided from the tracking document dialect=\(dialect.rawValue)")
        }
        switch outcome {
        case .unchanged(let bytes):
            if round.dialect == .mediatailor {
                log(.metadata, .debug, "mediatailor pages=\(round.pageCount) avails=0 nextToken=\(round.nextToken != nil)")
            } else {
                log(.metadata, .debug, "metadata unchanged bytes=\(bytes)")
            }
        case .document(let document, _) where round.dialect == .mediatailor:
            let adBreaks = document.adBreaks.count
            log(.metadata, .debug, "mediatailor pages=\(round.pageCount) avails=\(adBreaks) nextToken=\(round.nextToken != nil)")
        case .document, .failed, .cancelled:
            break
        }
        switch refreshed.result {
        case .unchanged(let bytes):
            notify(.metadataUnchanged(bytes: bytes))
        case .applied(let document, let bytes, let discovered, _):
            let timeline = document.timeline
            let (adBreaks, dataRange) = (document.adBreaks.count, document.dataRange)
            log(
                .metadata, .info,
                "metadata refreshed adBreaks=\(adBreaks) dataRange=\(timeline.format(dataRange.start))..\(timeline.format(dataRange.end)) bytes=\(bytes)")
            notify(.metadataApplied(adBreaks: adBreaks, dataRange: dataRange, bytes: bytes))
            if !discovered.isEmpty { notify(.adBreaksDiscovered(adBreakIDs: discovered)) }
        case .failed(let reason, let failures):
            let wait = refreshed.nextRefreshAt - now
            log(.metadata, .warning, "metadata refresh failed, keeping previous state reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(wait)")
            notify(.metadataFailed(reason: reason))
        }
    }

    /// Forgets finished deliveries and old sessions past retention, at most every few minutes.
    private mutating func pruneJournal(now: Milliseconds) {
        guard let cutoff = deliveries.prune(now: now, retention: configuration.retention.milliseconds) else { return }
        actions.append(.pruneJournal(before: cutoff))
    }
}

extension ActiveSession {
    /// What a finished metadata refresh did to the session, for its owner to report and carry out.
    package struct Refreshed: Sendable {
        package enum Result: Sendable {
            /// The document was the same as the last refresh's.
            case unchanged(bytes: Int)
            /// A new document was applied: the ad breaks seen for the first time, the tracking events it fired.
            case applied(MetadataDocument, bytes: Int, discovered: [String], firings: [Firing])
            /// The refresh failed, or its document was rejected: the previous state is kept.
            case failed(reason: String, failures: Int)
        }

        /// The dialect the tracking document decided, when the session had none.
        package var dialectDecided: Dialect?
        package var result: Result
        /// When the next refresh is due.
        package var nextRefreshAt: Milliseconds
    }

    /// Takes what a refresh came to at `now` (`wallNow` on the wall clock): a document is applied
    /// unless its timeline differs from the session's; after a failure the next refresh waits
    /// longer with each failure in a row, and no less than the server asked. Nil for a cancelled
    /// refresh, which changes nothing (a request is cancelled only when its session ends).
    package mutating func refreshed(
        by round: MetadataRound, _ outcome: MetadataRound.Outcome, now: Milliseconds, wallNow: Milliseconds,
        using random: inout some RandomNumberGenerator
    ) -> Refreshed? {
        guard outcome != .cancelled else { return nil }
        var dialectDecided: Dialect?
        if endpoints.dialect == nil, let dialect = round.dialect {
            endpoints.dialect = dialect
            dialectDecided = dialect
        }
        metadata.remember(round)
        switch outcome {
        case .cancelled:
            return nil
        case .unchanged(let bytes):
            return Refreshed(dialectDecided: dialectDecided, result: .unchanged(bytes: bytes), nextRefreshAt: metadata.succeeded(now: now, wallNow: wallNow))
        case .document(let document, let bytes):
            if let mismatch = tracking.timelineMismatch(of: document) {
                return failed("rejected: \(mismatch)", requestedWait: nil, dialectDecided: dialectDecided, now: now, using: &random)
            }
            var known = Set(tracking.schedule.adBreaks.map(\.id))
            let discovered = document.adBreaks.map(\.id).filter { known.insert($0).inserted }
            // Mutated in place: a copy would share, then duplicate, the whole schedule.
            let firings = tracking.apply(document)
            snapshotDirty = true
            return Refreshed(
                dialectDecided: dialectDecided, result: .applied(document, bytes: bytes, discovered: discovered, firings: firings),
                nextRefreshAt: metadata.succeeded(now: now, wallNow: wallNow))
        case .failed(let reason, let requestedWait):
            return failed(reason, requestedWait: requestedWait, dialectDecided: dialectDecided, now: now, using: &random)
        }
    }

    private mutating func failed(
        _ reason: String, requestedWait: Milliseconds?, dialectDecided: Dialect?, now: Milliseconds, using random: inout some RandomNumberGenerator
    ) -> Refreshed {
        let nextRefreshAt = metadata.failed(requestedWait: requestedWait, now: now, using: &random)
        return Refreshed(
            dialectDecided: dialectDecided, result: .failed(reason: reason, failures: metadata.schedule.consecutiveFailures),
            nextRefreshAt: nextRefreshAt)
    }
}

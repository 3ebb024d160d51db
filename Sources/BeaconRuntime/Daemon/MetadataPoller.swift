import BeaconDomain
import Logging

/// Refreshes a session's metadata for as long as the session lasts: each refresh's requests as its
/// ``MetadataRound`` asks for them, then a sleep on the time source until the next one is due.
///
/// The session's owner keeps the refresh state and decides: `begin` starts a round (nil once the
/// session ended), `requesting` is told of each request as it leaves, and `finished` applies what
/// the round came to and returns when the next refresh is due (nil once the session ended).
struct MetadataPoller: Sendable {
    /// Session init and metadata requests: a pool of their own, so they never wait behind beacon requests.
    let client: any HTTPClient
    let time: TimeSource
    let maxResponseBytes: Int

    func run(
        begin: @Sendable () async -> MetadataRound?,
        requesting: @Sendable () async -> Void,
        finished: @Sendable (MetadataRound, MetadataRound.Outcome) async -> Milliseconds?
    ) async {
        while !Task.isCancelled, var round = await begin() {
            var step = MetadataRound.Step.request(round.url)
            while case .request(let url) = step {
                await requesting()
                let answer: Result<HTTPClientResponse, HTTPClientError>
                do throws(HTTPClientError) {
                    answer = .success(try await client.send(HTTPClientRequest(url: url, maxResponseBytes: maxResponseBytes)))
                } catch {
                    answer = .failure(error)
                }
                step = round.received(answer, wallNow: time.wallNow())
            }
            guard case .finished(let outcome) = step, let nextRefreshAt = await finished(round, outcome) else { return }
            do { try await time.sleep(until: nextRefreshAt) } catch { return }
        }
    }

    /// Logs and tells the outputs what a refresh came to (`refreshed`, from `outcome` at `now`),
    /// in the order it happened; the tracking events it fired are dispatched after.
    static func report(
        _ refreshed: ActiveSession.Refreshed, of round: MetadataRound, _ outcome: MetadataRound.Outcome, now: Milliseconds, logger: Logger,
        notify: (DaemonNotification) -> Void
    ) {
        if let first = round.firstAnswer {
            logger.debug("metadata received status=\(first.status) bytes=\(first.bytes) url=\(round.trackingURL)")
        }
        if let dialect = refreshed.dialectDecided {
            logger.info("dialect decided from the tracking document dialect=\(dialect.rawValue)")
        }
        switch outcome {
        case .unchanged(let bytes):
            if round.dialect == .mediatailor {
                logger.debug("mediatailor pages=\(round.pageCount) avails=0 nextToken=\(round.nextToken != nil)")
            } else {
                logger.debug("metadata unchanged bytes=\(bytes)")
            }
        case .document(let document, _) where round.dialect == .mediatailor:
            logger.debug("mediatailor pages=\(round.pageCount) avails=\(document.adBreaks.count) nextToken=\(round.nextToken != nil)")
        case .document, .failed, .cancelled:
            break
        }
        switch refreshed.result {
        case .unchanged(let bytes):
            notify(.metadataUnchanged(bytes: bytes))
        case .applied(let document, let bytes, let discovered, _):
            logger.info(
                "metadata refreshed adBreaks=\(document.adBreaks.count) dataRange=\(document.timeline.format(document.dataRange.start))..\(document.timeline.format(document.dataRange.end)) bytes=\(bytes)")
            notify(.metadataApplied(adBreaks: document.adBreaks.count, dataRange: document.dataRange, bytes: bytes))
            if !discovered.isEmpty { notify(.adBreaksDiscovered(adBreakIDs: discovered)) }
        case .failed(let reason, let failures):
            logger.warning(
                "metadata refresh failed, keeping previous state reason=\"\(reason)\" failures=\(failures) retry_in_ms=\(refreshed.nextRefreshAt - now)")
            notify(.metadataFailed(reason: reason))
        }
    }
}

import BeaconDomain

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
}

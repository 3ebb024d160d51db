import BeaconDomain

extension HTTPClient {
    /// One child task per request; a client that can take a batch in one move does better
    /// (``CurlHTTPClient`` hands the whole batch to its transfer thread). Here, not in the domain:
    /// the domain decides, the runtime runs tasks.
    package func send(
        _ requests: [HTTPClientRequest],
        reporting report: @escaping @Sendable (Int, Result<HTTPClientResponse, HTTPClientError>) -> Void
    ) async {
        await withDiscardingTaskGroup { group in
            for (index, request) in requests.enumerated() {
                group.addTask {
                    do throws(HTTPClientError) {
                        report(index, .success(try await send(request)))
                    } catch {
                        report(index, .failure(error))
                    }
                }
            }
        }
    }
}

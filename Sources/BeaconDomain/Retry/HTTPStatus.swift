/// What an HTTP status tells its requester: the one reading of it for session init, metadata and
/// beacons alike.
package enum HTTPStatus {
    /// 2xx: the request did what it asked. Redirects are followed before a status is read.
    package static func isSuccess(_ status: Int) -> Bool {
        (200..<300).contains(status)
    }

    /// 429 and every 5xx: the server may do better later, so the request is tried again.
    package static func mayPassLater(_ status: Int) -> Bool {
        status == 429 || (500..<600).contains(status)
    }

    /// The wait an answer asks for with its `Retry-After` header (see ``RetryAfter``), honoured
    /// only on a status that is tried again: on any other, the header means nothing to the client.
    /// `wallNow` (epoch milliseconds) turns an HTTP-date into a wait.
    package static func requestedWait(status: Int, retryAfter: String?, wallNow: Milliseconds) -> Milliseconds? {
        guard mayPassLater(status), let retryAfter else { return nil }
        return RetryAfter.delay(retryAfter, now: wallNow)
    }
}

import BeaconDomain
// All libcurl interop lives in this file, and none of libcurl's pointers leaves it.
internal import CCurl
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The thread that owns one `CURLM` and runs every transfer of a `CurlHTTPClient`.
///
/// Other threads only touch the locked inbox and call `curl_multi_wakeup`, the one
/// multi function libcurl allows from another thread. Everything else, easy handles
/// included, is used on the loop thread only.
final class CurlMultiLoop: @unchecked Sendable {
    /// Called once with what became of a transfer, on the loop thread or the submitting one.
    typealias Completion = @Sendable (Result<HTTPClientResponse, HTTPClientError>) -> Void

    /// A request handed to the loop thread, not yet added to the multi handle.
    struct Submission: Sendable {
        var id: UInt64
        var request: HTTPClientRequest
        var complete: Completion
    }

    private struct Inbox {
        var nextID: UInt64 = 0
        var submissions: [Submission] = []
        var cancellations: [UInt64] = []
        var stopRequested = false
        /// A wakeup was sent and the loop has not taken the inbox since: one wakeup serves every
        /// submission of a burst, instead of a write to curl's wakeup pipe for each.
        var wakePending = false
        /// Set, under the lock, before the multi handle is freed: no wakeup after that.
        var finished = false
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// `curl_global_init` is not thread-safe; a static `let` runs it exactly once.
    private static let globalInitSucceeded: Bool = curl_global_init(ccurl_global_default()) == CURLE_OK

    private let multi: UnsafeMutableRawPointer?
    private let inbox = Mutex(Inbox())
    private let configuration: CurlHTTPClient.Configuration

    init(configuration: CurlHTTPClient.Configuration) {
        self.configuration = configuration
        let multi: UnsafeMutableRawPointer? = Self.globalInitSucceeded ? curl_multi_init() : nil
        if let multi {
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, max(configuration.maxConnectionsPerHost, 1))
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, max(configuration.maxTotalConnections, 1))
            _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, max(configuration.maxTotalConnections, 1))
        }
        self.multi = multi
        guard multi != nil, startThread() else {
            if let multi { curl_multi_cleanup(multi) }
            // Finished without having stopped: requests fail as "could not be initialised".
            inbox.withLock { $0.finished = true }
            return
        }
    }

    /// Detached: the thread keeps the loop alive until it has cleaned up, and `stop()`
    /// waits on a continuation rather than blocking in `pthread_join`.
    private func startThread() -> Bool {
        let retained = Unmanaged.passRetained(self)
        #if canImport(Darwin)
        var thread: pthread_t? = nil
        #else
        var thread = pthread_t()
        #endif
        let rc = pthread_create(&thread, nil, { argument in
            guard let argument else { return nil }
            let loop = Unmanaged<CurlMultiLoop>.fromOpaque(argument).takeRetainedValue()
            loop.run()
            return nil
        }, retained.toOpaque())
        guard rc == 0 else {
            retained.release()
            return false
        }
        #if canImport(Darwin)
        if let thread { pthread_detach(thread) }
        #else
        pthread_detach(thread)
        #endif
        return true
    }

    // MARK: Called from any thread

    /// `count` ids no other transfer has.
    func makeTransferIDs(count: Int) -> Range<UInt64> {
        inbox.withLock {
            let first = $0.nextID
            $0.nextID &+= UInt64(count)
            return first..<$0.nextID
        }
    }

    /// Hands transfers to the loop thread, all with one lock and one wakeup.
    func submit(_ submissions: [Submission]) {
        guard !submissions.isEmpty else { return }
        let refusal: HTTPClientError? = inbox.withLock { inbox in
            if inbox.finished && !inbox.stopRequested {
                return .connectionFailed("libcurl could not be initialised")
            }
            // Checked under the lock: a cancellation that came earlier queued ids
            // the loop has already dropped, so the transfers must not start at all.
            if inbox.stopRequested || Task.isCancelled { return .cancelled }
            inbox.submissions.append(contentsOf: submissions)
            wakeLocked(&inbox)
            return nil
        }
        if let refusal {
            for submission in submissions { submission.complete(.failure(refusal)) }
        }
    }

    func cancel(ids: Range<UInt64>) {
        inbox.withLock { inbox in
            guard !inbox.finished else { return }
            inbox.cancellations.append(contentsOf: ids)
            wakeLocked(&inbox)
        }
    }

    func requestStop() {
        inbox.withLock { inbox in
            guard !inbox.stopRequested else { return }
            inbox.stopRequested = true
            wakeLocked(&inbox)
        }
    }

    func stop() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done = inbox.withLock { inbox in
                if inbox.finished { return true }
                inbox.stopRequested = true
                inbox.stopWaiters.append(waiter)
                wakeLocked(&inbox)
                return false
            }
            if done { waiter.resume() }
        }
    }

    private func wakeLocked(_ inbox: inout Inbox) {
        guard !inbox.finished, !inbox.wakePending, let multi else { return }
        inbox.wakePending = true
        _ = curl_multi_wakeup(multi)
    }

    // MARK: Loop thread only

    private func run() {
        guard let multi else { return }
        var transfers: [UInt64: CurlTransfer] = [:]
        var idsByHandle: [UnsafeMutableRawPointer: UInt64] = [:]
        var admission = HostAdmission<Submission>(limit: configuration.maxConnectionsPerHost)

        /// Hands an admitted submission to curl; one that cannot start gives its slot to the next.
        func start(_ admitted: Submission, host: String) {
            var next: Submission? = admitted
            while let submission = next {
                next = nil
                let failure: HTTPClientError
                switch CurlTransfer.make(submission, host: host, configuration: configuration) {
                case .success(let transfer):
                    let added = curl_multi_add_handle(multi, transfer.easy)
                    if added == CURLM_OK {
                        transfers[transfer.id] = transfer
                        idsByHandle[transfer.easy] = transfer.id
                        continue
                    }
                    transfer.close()
                    failure = .connectionFailed(String(cString: curl_multi_strerror(added)))
                case .failure(let error):
                    failure = error
                }
                submission.complete(.failure(failure))
                next = admission.release(host: host)
            }
        }

        func finish(_ transfer: CurlTransfer, _ result: Result<HTTPClientResponse, HTTPClientError>) {
            transfers[transfer.id] = nil
            idsByHandle[transfer.easy] = nil
            curl_multi_remove_handle(multi, transfer.easy)
            transfer.close()
            transfer.complete(result)
            if let next = admission.release(host: transfer.host) { start(next, host: transfer.host) }
        }

        while true {
            let (submissions, cancellations, stopRequested) = inbox.withLock { inbox in
                defer {
                    inbox.submissions.removeAll()
                    inbox.cancellations.removeAll()
                    inbox.wakePending = false
                }
                return (inbox.submissions, inbox.cancellations, inbox.stopRequested)
            }
            for submission in submissions {
                let host = URLPolicy.hostKey(of: submission.request.url)
                if let admitted = admission.admit(submission, id: submission.id, host: host) { start(admitted, host: host) }
            }
            for id in cancellations {
                // Unknown ids belong to transfers already finished: nothing to do.
                if let transfer = transfers[id] {
                    finish(transfer, .failure(.cancelled))
                } else if let waiting = admission.removeWaiting(id: id) {
                    waiting.complete(.failure(.cancelled))
                }
            }
            if stopRequested { break }

            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            var queued: Int32 = 0
            while let message = curl_multi_info_read(multi, &queued) {
                // Copied out first: removing the handle invalidates the message.
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                let code = message.pointee.data.result
                guard let id = idsByHandle[easy], let transfer = transfers[id] else { continue }
                finish(transfer, transfer.result(for: code))
            }
            // Wakes for sockets, curl's own timers (it shortens the wait itself) and the inbox, so
            // the limit only bounds an idle wait: an idle daemon should not wake every second.
            _ = curl_multi_poll(multi, nil, 0, 600_000, nil)
        }

        // Waiting ones first: finishing a running transfer would start the next.
        for waiting in admission.removeAllWaiting() { waiting.complete(.failure(.cancelled)) }
        for transfer in Array(transfers.values) { finish(transfer, .failure(.cancelled)) }
        let (late, waiters) = inbox.withLock { inbox in
            inbox.finished = true
            defer {
                inbox.submissions.removeAll()
                inbox.stopWaiters.removeAll()
            }
            return (inbox.submissions, inbox.stopWaiters)
        }
        curl_multi_cleanup(multi)
        for submission in late { submission.complete(.failure(.cancelled)) }
        for waiter in waiters { waiter.resume() }
    }
}

/// One easy handle and what its callbacks collect. Used on the loop thread only.
private final class CurlTransfer {
    let id: UInt64
    let easy: UnsafeMutableRawPointer
    let complete: CurlMultiLoop.Completion
    /// The ``HostAdmission`` key whose slot this transfer holds.
    let host: String
    private let start: ContinuousClock.Instant
    private let requestURL: String
    private let limit: Int
    private var headers: UnsafeMutablePointer<curl_slist>?
    private var body: [UInt8] = []
    private var overflowed = false
    private var location: String?
    private var retryAfter: String?
    /// A response began, from the URL's host or a redirect target: that host was reached.
    private var answered = false

    private init(_ submission: CurlMultiLoop.Submission, host: String, easy: UnsafeMutableRawPointer) {
        self.id = submission.id
        self.easy = easy
        self.complete = submission.complete
        self.host = host
        self.start = .now
        self.requestURL = submission.request.url
        self.limit = max(submission.request.maxResponseBytes, 0)
    }

    /// The total timeout counts from here, when the request is handed to libcurl: time spent
    /// waiting for a slot is not on the wire, and counting it would time out requests the server
    /// already has, which would then be sent again.
    static func make(
        _ submission: CurlMultiLoop.Submission, host: String, configuration: CurlHTTPClient.Configuration
    ) -> Result<CurlTransfer, HTTPClientError> {
        guard let easy = curl_easy_init() else { return .failure(.connectionFailed("out of memory")) }
        let transfer = CurlTransfer(submission, host: host, easy: easy)
        let code = transfer.configure(submission.request, configuration)
        guard code == CURLE_OK else {
            transfer.close()
            return .failure(.connectionFailed(String(cString: curl_easy_strerror(code))))
        }
        return .success(transfer)
    }

    private func configure(_ request: HTTPClientRequest, _ configuration: CurlHTTPClient.Configuration) -> CURLcode {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var steps: [() -> CURLcode] = [
            { ccurl_easy_setopt_long(self.easy, CURLOPT_NOSIGNAL, 1) },
            { ccurl_easy_setopt_string(self.easy, CURLOPT_URL, request.url) },
            { ccurl_easy_setopt_string(self.easy, CURLOPT_PROTOCOLS_STR, "http,https") },
            { ccurl_easy_setopt_string(self.easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") },
            { ccurl_easy_setopt_long(self.easy, CURLOPT_FOLLOWLOCATION, 1) },
            { ccurl_easy_setopt_long(self.easy, CURLOPT_MAXREDIRS, max(configuration.maxRedirects, 0)) },
            { ccurl_easy_setopt_long(self.easy, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout)) },
            { ccurl_easy_setopt_long(self.easy, CURLOPT_TIMEOUT_MS, Self.milliseconds(configuration.totalTimeout)) },
            { ccurl_easy_setopt_write_function(self.easy, CURLOPT_WRITEFUNCTION, curlWriteBody) },
            { ccurl_easy_setopt_pointer(self.easy, CURLOPT_WRITEDATA, userdata) },
            { ccurl_easy_setopt_write_function(self.easy, CURLOPT_HEADERFUNCTION, curlReadHeader) },
            { ccurl_easy_setopt_pointer(self.easy, CURLOPT_HEADERDATA, userdata) },
        ]
        if let userAgent = configuration.userAgent {
            steps.append { ccurl_easy_setopt_string(self.easy, CURLOPT_USERAGENT, userAgent) }
        }
        if limit > 0 {
            // Refuses early when Content-Length already announces too much.
            steps.append { ccurl_easy_setopt_off_t(self.easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(self.limit)) }
        }
        switch request.method {
        case .get:
            steps.append { ccurl_easy_setopt_long(self.easy, CURLOPT_HTTPGET, 1) }
        case .post:
            steps.append { ccurl_easy_setopt_long(self.easy, CURLOPT_POST, 1) }
            steps.append { ccurl_easy_setopt_off_t(self.easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.count)) }
            if request.body.isEmpty {
                // A null pointer would make curl read the body from stdin.
                steps.append { ccurl_easy_setopt_string(self.easy, CURLOPT_COPYPOSTFIELDS, "") }
            } else {
                steps.append {
                    request.body.withUnsafeBytes {
                        ccurl_easy_setopt_pointer(self.easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress))
                    }
                }
            }
        }
        var lines = request.headers.map { header -> String in
            let name = Self.sanitized(header.name)
            let value = Self.sanitized(header.value)
            // "Name;" is curl's spelling of a header sent with an empty value.
            return value.isEmpty ? "\(name);" : "\(name): \(value)"
        }
        if !request.headers.contains(where: { $0.name.lowercased() == "expect" }) {
            // No "Expect: 100-continue" round trip before a POST body.
            lines.append("Expect:")
        }
        for line in lines {
            guard let appended = curl_slist_append(headers, line) else { return CURLE_OUT_OF_MEMORY }
            headers = appended
        }
        steps.append { ccurl_easy_setopt_slist(self.easy, CURLOPT_HTTPHEADER, self.headers) }

        for step in steps {
            let code = step()
            guard code == CURLE_OK else { return code }
        }
        return CURLE_OK
    }

    /// Frees the easy handle and the header list; the handle must be out of the multi.
    func close() {
        curl_easy_cleanup(easy)
        curl_slist_free_all(headers)
        headers = nil
    }

    /// Write callback body: `false` aborts the transfer.
    fileprivate func receive(_ chunk: UnsafeRawBufferPointer) -> Bool {
        if limit == 0 { return true }
        guard body.count + chunk.count <= limit else {
            overflowed = true
            return false
        }
        body.append(contentsOf: chunk)
        return true
    }

    /// Header callback body: remembers the last response's Location (to name the scheme of a refused
    /// redirect, and the session a `201` created) and Retry-After.
    fileprivate func header(_ line: UnsafeRawBufferPointer) {
        if Self.starts(line, with: "http/") {
            // A new response (after a redirect, or a 100 Continue): what an earlier one asked does not hold.
            retryAfter = nil
            location = nil
            answered = true
        } else if let value = Self.value(of: "location:", in: line) {
            location = value
        } else if let value = Self.value(of: "retry-after:", in: line) {
            retryAfter = value
        }
    }

    /// The value of a header line named `name` (lowercase, with its colon), trimmed; nil for another header.
    private static func value(of name: StaticString, in line: UnsafeRawBufferPointer) -> String? {
        guard starts(line, with: name) else { return nil }
        return String(decoding: line.dropFirst(name.utf8CodeUnitCount), as: UTF8.self).trimmingASCIIWhitespace()
    }

    /// Whether `line` starts with `prefix` (lowercase ASCII), ignoring case.
    private static func starts(_ line: UnsafeRawBufferPointer, with prefix: StaticString) -> Bool {
        // Compared as bytes: building a String of every header line was a visible cost in a burst.
        let expected = UnsafeRawBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return line.count >= expected.count
            && zip(line, expected).allSatisfy { byte, wanted in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == wanted : byte == wanted
            }
    }

    func result(for code: CURLcode) -> Result<HTTPClientResponse, HTTPClientError> {
        switch code {
        case CURLE_OK:
            var status = 0
            _ = ccurl_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var effective: UnsafeMutablePointer<CChar>? = nil
            _ = ccurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
            let finalURL = effective.map { String(cString: $0) } ?? requestURL
            let elapsed = start.duration(to: .now).components
            let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
            return .success(
                HTTPClientResponse(
                    status: status, finalURL: finalURL, body: body, latencyMilliseconds: milliseconds, retryAfter: retryAfter,
                    location: location))
        case CURLE_OPERATION_TIMEDOUT:
            return .failure(sentRequest ? .timedOut : .connectTimedOut)
        case CURLE_TOO_MANY_REDIRECTS:
            return .failure(.tooManyRedirects)
        case CURLE_UNSUPPORTED_PROTOCOL:
            let target = location ?? requestURL
            return .failure(.unsupportedScheme(URLPolicy.scheme(of: target) ?? "unknown"))
        case CURLE_FILESIZE_EXCEEDED:
            return .failure(.responseTooLarge(limit: limit))
        case CURLE_WRITE_ERROR where overflowed:
            return .failure(.responseTooLarge(limit: limit))
        case CURLE_URL_MALFORMAT:
            return .failure(.invalidURL(CurlHTTPClient.redacted(requestURL)))
        default:
            let reason = String(cString: curl_easy_strerror(code))
            return .failure(answered ? .transferFailed(reason) : .connectionFailed(reason))
        }
    }

    /// Whether a request went out on a connection: a timeout before that is the host's, not the URL's.
    private var sentRequest: Bool {
        var bytes = 0
        _ = ccurl_easy_getinfo_long(easy, CURLINFO_REQUEST_SIZE, &bytes)
        return bytes > 0
    }

    /// curl reads 0 as "no timeout"; anything configured means at least 1 ms.
    private static func milliseconds(_ duration: Duration) -> Int {
        let parts = duration.components
        let value = parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
        return Int(clamping: max(value, 1))
    }

    /// CR, LF and NUL would let a value start a header of its own.
    private static func sanitized(_ text: String) -> String {
        String(text.unicodeScalars.filter { $0 != "\r" && $0 != "\n" && $0 != "\0" }.map(Character.init))
    }
}

private func curlWriteBody(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    return transfer.receive(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

private func curlReadHeader(
    _ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ userdata: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let userdata else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    transfer.header(UnsafeRawBufferPointer(start: data, count: length))
    return length
}

extension StringProtocol {
    fileprivate func trimmingASCIIWhitespace() -> String {
        // "\r\n" is one Character: a header line ends with it.
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}

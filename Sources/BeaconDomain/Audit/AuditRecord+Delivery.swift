/// The records of a tracking event's firing and of its signaling URLs' requests, made from the
/// delivery coordinator's decisions.
extension AuditRecord {
    /// The tracking event fired at `wallNow`, made due by the `played` stretches.
    package static func due(
        _ firing: Firing, sessionKey: String, subject: AuditSubject, played: [ClosedRange<Milliseconds>], at wallNow: Milliseconds
    ) -> AuditRecord {
        // An event that fires on every action is a new story each time it fires.
        let occurrence = firing.event.firesOnce ? [] : [String(wallNow)]
        let parts = [sessionKey, firing.adBreakID, firing.adID, firing.event.rawValue, String(firing.eventStart)] + occurrence
        var record = AuditRecord(id: AuditRecordID.of(.due, parts), kind: .due, at: wallNow, subject: subject)
        record.dueAt = wallNow
        record.played = played
        return record
    }

    /// What one ended request adds, or one delivery given up without a request: the attempt, then,
    /// when it was the last, why the signaling URL was given up; a request not sent (quiet, beacons
    /// disabled) is a tracking event that reached nobody. `now` and `wallNow` are the same instant on
    /// the two clocks: the delivery's due time is on the first.
    package static func records(
        of ended: DeliveryEffects.EndedRequest, subject: AuditSubject, now: Milliseconds, wallNow: Milliseconds
    ) -> [AuditRecord] {
        let delivery = ended.delivery
        let parts = AuditRecordID.parts(of: delivery.key)
        func record(_ kind: Kind, _ extra: [String] = []) -> AuditRecord {
            var record = AuditRecord(id: AuditRecordID.of(kind, parts + extra), kind: kind, at: wallNow, subject: subject)
            record.dueAt = wallNow - max(0, now - delivery.dueAt)
            record.urlHost = host(of: delivery.key.url)
            return record
        }
        var records: [AuditRecord] = []
        switch ended.result.outcome {
        case .notSent(let why):
            var notSent = record(.notFired)
            notSent.notFired = why == .quiet ? .quietMode : .beaconsDisabled
            return [notSent]
        case .answered(let status) where ended.attempted:
            var attempt = record(.attempt, [String(delivery.attempts)])
            attempt.httpStatus = status
            attempt.latencyMilliseconds = ended.result.latencyMilliseconds
            attempt.attempt = delivery.attempts
            attempt.mayBeResend = ended.resend
            records.append(attempt)
        case .failed(let error) where ended.attempted:
            var attempt = record(.attempt, [String(delivery.attempts)])
            attempt.error = error.description
            attempt.latencyMilliseconds = ended.result.latencyMilliseconds
            attempt.attempt = delivery.attempts
            attempt.mayBeResend = ended.resend
            records.append(attempt)
        case .answered, .failed, .refused:
            break
        }
        if delivery.state == .failed {
            var givenUp = record(.givenUp)
            givenUp.attempt = delivery.attempts
            givenUp.httpStatus = delivery.lastStatus
            givenUp.reason = delivery.lastError ?? delivery.lastStatus.map { "HTTP \($0)" } ?? "given up"
            records.append(givenUp)
        }
        return records
    }

    /// The host a URL names, without scheme, user information or port: what `url.domain` holds.
    package static func host(of url: String) -> String {
        let key = URLPolicy.hostKey(of: url)
        guard let scheme = URLPolicy.scheme(of: key), key.utf8.count > scheme.utf8.count + 3 else { return key }
        let authority = key.dropFirst(scheme.count + 3)
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        return String(authority.prefix { $0 != ":" })
    }
}

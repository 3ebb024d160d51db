/// An audit record as an OTLP log record: its fields as attributes under `beaconctl.`, the
/// semantic conventions' names where one fits (`url.domain`, `server.address`,
/// `http.response.status_code`, `error.type`), a severity by outcome, its time as the event's and
/// the observed time.
extension AuditRecord {
    package var otlpLogRecord: OTLPLogRecord {
        OTLPLogRecord(
            time: at, observedTime: at, severity: otlpSeverity, body: summary, attributes: otlpAttributes,
            eventName: "beaconctl.audit.\(kind.rawValue)")
    }

    /// Delivered and the story's steps are information; a failed request or an event that reached
    /// nobody is a warning; a URL given up, or a session that could not start, is an error.
    private var otlpSeverity: OTLPSeverity {
        switch (kind, outcome) {
        case (.sessionInitFailed, _), (_, .givenUp?): .error
        case (_, .failed?), (_, .notFired?): .warn
        default: .info
        }
    }

    private var otlpAttributes: [OTLPAttribute] {
        var attributes = [OTLPAttribute("beaconctl.record.id", .string(id)), OTLPAttribute("beaconctl.record", .string(kind.rawValue))]
        func add(_ key: String, _ value: OTLPValue?) {
            if let value { attributes.append(OTLPAttribute(key, value)) }
        }
        add("beaconctl.outcome", outcome.map { .string($0.rawValue) })
        add("beaconctl.session.id", subject.sessionID.map(OTLPValue.string))
        add("beaconctl.dialect", subject.dialect.map { .string($0.rawValue) })
        add("beaconctl.ad_break.id", subject.adBreakID.map(OTLPValue.string))
        add("beaconctl.ad.id", subject.adID.map(OTLPValue.string))
        add("beaconctl.creative.id", subject.creativeID.map(OTLPValue.string))
        add("beaconctl.event", subject.event.map { .string($0.rawValue) })
        add("beaconctl.timeline", subject.timeline.map { .string($0.rawValue) })
        add("beaconctl.window.start", subject.window.map { .int($0.lowerBound) })
        add("beaconctl.window.end", subject.window.map { .int($0.upperBound) })
        add("beaconctl.due_at", dueAt.map { .string(UTCTime.format($0)) })
        if !played.isEmpty { add("beaconctl.played", .array(played.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })) }
        add("beaconctl.attempt", attempt.map { .int(Int64($0)) })
        add("url.domain", urlHost.map(OTLPValue.string))
        add("server.address", urlHost.map(OTLPValue.string))
        add("http.response.status_code", httpStatus.map { .int(Int64($0)) })
        add("error.type", error.map(OTLPValue.string))
        add("beaconctl.latency_ms", latencyMilliseconds.map(OTLPValue.int))
        add("beaconctl.may_be_resend", mayBeResend.map(OTLPValue.bool))
        add("beaconctl.reason", reason.map(OTLPValue.string))
        add("beaconctl.not_fired", notFired.map { .string($0.rawValue) })
        return attributes
    }
}

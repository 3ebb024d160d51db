/// One exported log record: an event of the daemon, with its times, severity, text and attributes.
package struct OTLPLogRecord: Sendable, Equatable {
    /// When the event happened, in nanoseconds since the epoch.
    package var timeUnixNano: UInt64
    /// When the daemon recorded it, in nanoseconds since the epoch.
    package var observedTimeUnixNano: UInt64
    package var severity: OTLPSeverity
    package var severityText: String
    package var body: String
    package var attributes: [OTLPAttribute]
    /// What kind of event this is (the protocol's `eventName`), for a collector to route on; nil for a plain log line.
    package var eventName: String?

    /// A record of an event at `time` (epoch milliseconds), observed at `observedTime` (the same
    /// time when not given); `severityText` is the severity's own name when not given.
    package init(
        time: Milliseconds, observedTime: Milliseconds? = nil, severity: OTLPSeverity, severityText: String? = nil, body: String,
        attributes: [OTLPAttribute] = [], eventName: String? = nil
    ) {
        timeUnixNano = UnixNano.of(time)
        observedTimeUnixNano = UnixNano.of(observedTime ?? time)
        self.severity = severity
        self.severityText = severityText ?? severity.text
        self.body = body
        self.attributes = attributes
        self.eventName = eventName
    }
}

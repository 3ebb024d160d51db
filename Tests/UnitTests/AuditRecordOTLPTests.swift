import Testing

@testable import BeaconDomain

/// An audit record as the telemetry reporter exports it, an OTLP log record: its fields as
/// `beaconctl.` attributes and the semantic conventions' names, a severity by outcome, its event
/// name, body and times; and the resource every export carries.
@Suite(.timeLimit(.minutes(1))) struct AuditRecordOTLPTests {
    /// The records of every kind, with every field each carries (see ``AuditRecordJSONTests``).
    static func sample(_ kind: AuditRecord.Kind, outcome: AuditOutcome? = nil) -> AuditRecord {
        AuditRecordJSONTests.lines.map(\.0).first { $0.kind == kind && (outcome == nil || $0.outcome == outcome) }!
    }

    static func value(_ record: OTLPLogRecord, _ key: String) -> OTLPValue? {
        record.attributes.first { $0.key == key }?.value
    }

    @Test func aRequestCarriesItsFieldsAsAttributesInOrder() {
        let log = Self.sample(.attempt, outcome: .delivered).otlpLogRecord
        let t0 = AuditSample.t0
        #expect(
            log.attributes == [
                OTLPAttribute("beaconctl.record.id", .string("id-attempt")), OTLPAttribute("beaconctl.record", .string("attempt")),
                OTLPAttribute("beaconctl.outcome", .string("delivered")), OTLPAttribute("beaconctl.session.id", .string("s1")),
                OTLPAttribute("beaconctl.dialect", .string("harmonic")), OTLPAttribute("beaconctl.ad_break.id", .string("p")),
                OTLPAttribute("beaconctl.ad.id", .string("a")), OTLPAttribute("beaconctl.creative.id", .string("c1")),
                OTLPAttribute("beaconctl.event", .string("impression")), OTLPAttribute("beaconctl.timeline", .string("programDateTime")),
                OTLPAttribute("beaconctl.window.start", .int(t0)), OTLPAttribute("beaconctl.window.end", .int(t0 + 2000)),
                OTLPAttribute("beaconctl.due_at", .string("2023-01-31T03:25:34.576Z")), OTLPAttribute("beaconctl.attempt", .int(2)),
                OTLPAttribute("url.domain", .string("t.example")), OTLPAttribute("server.address", .string("t.example")),
                OTLPAttribute("http.response.status_code", .int(200)), OTLPAttribute("beaconctl.latency_ms", .int(35)),
                OTLPAttribute("beaconctl.may_be_resend", .bool(true)),
            ])
        #expect(log.eventName == "beaconctl.audit.attempt")
        #expect(log.body == "impression of ad a in ad break p: request 2 to t.example delivered, HTTP 200")
    }

    @Test func aRequestWithoutAnAnswerHasItsErrorType() {
        let log = Self.sample(.attempt, outcome: .failed).otlpLogRecord
        #expect(Self.value(log, "error.type") == .string("timed out"))
        #expect(Self.value(log, "http.response.status_code") == nil)
        #expect(Self.value(log, "beaconctl.outcome") == .string("failed"))
        #expect(log.body == "impression of ad a in ad break p: request 1 to t.example failed, timed out")
    }

    @Test func anEventThatNeverFiredCarriesWhyAndThePlaybackAroundIt() {
        let log = Self.sample(.notFired).otlpLogRecord
        #expect(Self.value(log, "beaconctl.not_fired") == .string("seeked-over"))
        #expect(Self.value(log, "beaconctl.played") == .array([.array([.int(0), .int(10_000)]), .array([.int(20_000), .int(25_000)])]))
        #expect(Self.value(log, "url.domain") == nil && Self.value(log, "server.address") == nil)
        #expect(log.body == "midpoint of ad a in ad break p never reached its ad server: playback jumped over its window (a seek) without playing it")
    }

    @Test func aSessionRecordCarriesNoEventAttributes() {
        let log = Self.sample(.sessionInitFailed).otlpLogRecord
        #expect(log.attributes.map(\.key) == ["beaconctl.record.id", "beaconctl.record", "beaconctl.session.id", "beaconctl.dialect", "beaconctl.reason"])
        #expect(Self.value(log, "beaconctl.reason") == .string("HTTP 503"))
        #expect(log.body == "session init for https://ssai.example/live/master.m3u8 failed: HTTP 503")
    }

    static let severities: [(AuditRecord.Kind, AuditOutcome?, OTLPSeverity)] = [
        (.sessionStart, nil, .info), (.sessionEnd, nil, .info), (.sessionInitFailed, nil, .error), (.due, nil, .info),
        (.attempt, .delivered, .info), (.attempt, .failed, .warn), (.givenUp, nil, .error), (.notFired, nil, .warn),
    ]

    @Test(arguments: severities) func theSeverityFollowsTheOutcome(kind: AuditRecord.Kind, outcome: AuditOutcome?, severity: OTLPSeverity) {
        let log = Self.sample(kind, outcome: outcome).otlpLogRecord
        #expect(log.severity == severity)
        #expect(log.severityText == severity.text)
        #expect(log.eventName == "beaconctl.audit.\(kind.rawValue)")
    }

    @Test func severityNumbersAndTextsAreTheProtocols() {
        #expect([OTLPSeverity.info, .warn, .error].map(\.rawValue) == [9, 13, 17])
        #expect([OTLPSeverity.info, .warn, .error].map(\.text) == ["INFO", "WARN", "ERROR"])
    }

    @Test func inTheExportItsTimesAreDecimalNanosecondStringsAndItsIDAnAttribute() {
        var record = Self.sample(.givenUp)
        record.id = "0123456789abcdef0123456789abcdef"
        let request = OTLPJSON.logsRequest(
            resource: OTLPResource(attributes: []), scope: OTLPScope(version: "1"), records: [record.otlpLogRecord])
        let json = String(decoding: request, as: UTF8.self)
        #expect(
            json.contains(
                #""logRecords":[{"timeUnixNano":"1675135534076000000","observedTimeUnixNano":"1675135534076000000","severityNumber":17,"#
                    + #""severityText":"ERROR","body":{"stringValue":"complete of ad a: given up for t.example: HTTP 404"},"#
                    + #""attributes":[{"key":"beaconctl.record.id","value":{"stringValue":"0123456789abcdef0123456789abcdef"}},"#))
        #expect(json.contains(#"{"key":"http.response.status_code","value":{"intValue":"404"}}"#))
        #expect(json.hasSuffix(#""eventName":"beaconctl.audit.given-up"}]}]}]}"#))
    }

    @Test func theSameStepToldAgainLaterKeepsItsRecordIDAttribute() {
        let subject = AuditSubject(sessionID: "s1")
        let first = AuditRecord.session(.sessionEnd, subject, parts: ["s1"], at: AuditSample.t0).otlpLogRecord
        let again = AuditRecord.session(.sessionEnd, subject, parts: ["s1"], at: AuditSample.t0 + 5000).otlpLogRecord
        #expect(first.timeUnixNano != again.timeUnixNano)
        #expect(Self.value(first, "beaconctl.record.id") == .string(AuditRecordID.of(.sessionEnd, ["s1"])))
        #expect(Self.value(again, "beaconctl.record.id") == Self.value(first, "beaconctl.record.id"))
    }

    // MARK: The resource

    @Test func theResourceNamesTheServiceTheBoxThenTheOperatorsAttributesByName() {
        let resource = TelemetryResource.make(
            version: "2.0.1", instanceID: "9f86d081884c7d65", instance: "kitchen", machine: "x86_64",
            operatorAttributes: ["region": "eu", "deployment.environment": "prod"])
        #expect(
            resource.attributes == [
                OTLPAttribute("service.name", .string("beaconctl")), OTLPAttribute("service.version", .string("2.0.1")),
                OTLPAttribute("service.instance.id", .string("9f86d081884c7d65")), OTLPAttribute("beaconctl.instance", .string("kitchen")),
                OTLPAttribute("host.arch", .string("amd64")), OTLPAttribute("os.type", .string("linux")),
                OTLPAttribute("deployment.environment", .string("prod")), OTLPAttribute("region", .string("eu")),
            ])
    }

    static let ours = ["service.name", "service.version", "service.instance.id", "beaconctl.instance", "host.arch", "os.type"]

    @Test(arguments: ours) func anOperatorAttributeCannotReplaceOurs(key: String) {
        let plain = TelemetryResource.make(version: "2.0.1", instanceID: "id", instance: "", machine: "aarch64", operatorAttributes: [:])
        let overridden = TelemetryResource.make(
            version: "2.0.1", instanceID: "id", instance: "", machine: "aarch64", operatorAttributes: [key: "forged"])
        #expect(overridden == plain)
    }

    static let machines: [(String, String)] = [
        ("x86_64", "amd64"), ("amd64", "amd64"), ("aarch64", "arm64"), ("arm64", "arm64"), ("armv7l", "arm32"), ("armv6l", "arm32"),
        ("i386", "x86"), ("i686", "x86"), ("ppc64le", "ppc64"), ("ppc64", "ppc64"), ("s390x", "s390x"), ("riscv64", "riscv64"),
    ]

    @Test(arguments: machines) func theMachineIsWrittenAsTheConventionsHostArch(machine: String, arch: String) {
        #expect(TelemetryResource.hostArch(machine) == arch)
        let resource = TelemetryResource.make(version: "1", instanceID: "id", instance: "", machine: machine, operatorAttributes: [:])
        #expect(resource.attributes.first { $0.key == "host.arch" }?.value == .string(arch))
    }
}

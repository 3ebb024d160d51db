/// What produces the telemetry (the protocol's `Resource`): this daemon on this box, described by
/// attributes such as `service.name` and `service.version`.
package struct OTLPResource: Sendable, Equatable {
    package var attributes: [OTLPAttribute]

    package init(attributes: [OTLPAttribute]) {
        self.attributes = attributes
    }
}

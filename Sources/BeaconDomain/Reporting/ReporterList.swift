/// The reply to `reporter list`: every reporter's status, in ``ReporterName`` order.
package struct ReporterList: Sendable, Equatable, Codable {
    package var reporters: [ReporterStatus]

    package init(reporters: [ReporterStatus]) {
        self.reporters = reporters
    }

    package func jsonLine() -> String {
        JSONLine.encode(self)
    }
}

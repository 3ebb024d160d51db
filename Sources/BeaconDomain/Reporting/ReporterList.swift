/// The reply to `reporter list`: every reporter's status, in ``ReporterName`` order.
public struct ReporterList: Sendable, Equatable, Codable {
    public var reporters: [ReporterStatus]

    public init(reporters: [ReporterStatus]) {
        self.reporters = reporters
    }

    public func jsonLine() -> String {
        JSONLine.encode(self)
    }
}

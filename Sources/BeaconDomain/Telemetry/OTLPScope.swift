/// The instrumentation scope every record and metric is exported under: the code that made them.
package struct OTLPScope: Sendable, Equatable {
    package var name: String
    package var version: String

    package init(name: String = "beaconctl", version: String) {
        self.name = name
        self.version = version
    }
}

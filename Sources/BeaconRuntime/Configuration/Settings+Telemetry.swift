import BeaconDomain

extension TelemetrySettings {
    /// Takes one `[telemetry]` key's value, validated.
    mutating func assign(_ value: SettingValue, to key: SettingKey) throws(Settings.Refusal) {
        switch key {
        case .telemetryEndpoint:
            let url = try Settings.url(value)
            // Logs and metrics go to paths appended to it, so it can carry no query or fragment.
            guard !url.contains("?"), !url.contains("#") else { throw Settings.Refusal(reason: "must be a base URL without a query or fragment") }
            endpoint = url
        case .telemetryHeaders: headers = try Settings.headers(value, reserved: Self.reservedHeaders)
        case .telemetryExportInterval: exportInterval = try Self.interval(value)
        case .telemetryLogInterval: logInterval = try Self.interval(value)
        case .telemetryBatchSize: batchSize = try Settings.count(value, in: Self.batchSizes)
        case .telemetryResourceAttributes: resourceAttributes = try Self.attributes(value)
        case .telemetryCompression:
            let expected = "must be " + Compression.allCases.map(\.rawValue).joined(separator: " or ") + ", in quotes"
            guard let compression = Compression(rawValue: try Settings.text(value, expected).lowercased()) else {
                throw Settings.Refusal(reason: expected)
            }
            self.compression = compression
        default: preconditionFailure("\(key) is not a [telemetry] key")
        }
    }

    /// One `[telemetry]` key as the file writes it, or nil when unset.
    func tomlValue(of key: SettingKey) -> String? {
        switch key {
        case .telemetryEndpoint: endpoint.map(Settings.quoted)
        case .telemetryHeaders: headers.isEmpty ? nil : Settings.inlineTable(headers)
        case .telemetryExportInterval: Settings.number(Settings.seconds(of: exportInterval))
        case .telemetryLogInterval: Settings.number(Settings.seconds(of: logInterval))
        case .telemetryBatchSize: "\(batchSize)"
        case .telemetryResourceAttributes: resourceAttributes.isEmpty ? nil : Settings.inlineTable(resourceAttributes)
        case .telemetryCompression: Settings.quoted(compression.rawValue)
        default: preconditionFailure("\(key) is not a [telemetry] key")
        }
    }

    private static func interval(_ value: SettingValue) throws(Settings.Refusal) -> Duration {
        let seconds = try Settings.seconds(value)
        guard Duration.seconds(seconds) >= minInterval else { throw Settings.Refusal(reason: "must be at least 1 second") }
        return .seconds(seconds)
    }

    /// `{ "deployment.environment" = "prod" }` in the file; `key=value,key=value` as a flag or
    /// variable, as `OTEL_RESOURCE_ATTRIBUTES` writes them.
    private static func attributes(_ value: SettingValue) throws(Settings.Refusal) -> [String: String] {
        var pairs: [(String, SettingValue)] = []
        switch value {
        case .table(let table): pairs = table.map { ($0.key, $0.value) }
        case .text(let text):
            pairs = try Settings.pairs(text, separatedBy: ",", between: "=", form: "'key=value'").map { ($0.0, .text($0.1)) }
        case .number, .boolean, .unsupported:
            throw Settings.Refusal(reason: "must be a table of strings ({ \"deployment.environment\" = \"prod\" })")
        }
        guard pairs.count <= maxResourceAttributes else { throw Settings.Refusal(reason: "must be at most \(maxResourceAttributes) attributes") }
        var attributes: [String: String] = [:]
        for (name, value) in pairs {
            guard !name.isEmpty, name.utf8.count <= 255, name.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw Settings.Refusal(reason: "attribute name '\(name.prefix(64))' must be 1 to 255 printable ASCII characters without spaces")
            }
            guard case .text = value else { throw Settings.Refusal(reason: "attribute \(name) must be a string") }
            attributes[name] = try Settings.label(value)
        }
        return attributes
    }

    /// Operator attributes ride on every export: a handful describe a box.
    static let maxResourceAttributes = 32
}

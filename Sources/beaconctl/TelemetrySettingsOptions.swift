import ArgumentParser
import BeaconRuntime

/// The flags of the `[telemetry]` table; like every setting flag, text until `Settings` validates it.
struct TelemetrySettingsOptions: ParsableArguments {
    @Option(name: .customLong("telemetry-endpoint"), help: settingHelp("OpenTelemetry collector's OTLP/HTTP base URL (logs to /v1/logs, metrics to /v1/metrics): enables the telemetry reporter (default: off).", .telemetryEndpoint, valueName: "url"))
    var telemetryEndpoint: String?

    @Option(name: .customLong("telemetry-headers"), help: settingHelp("Extra request headers (an API key), 'Name: value' pairs separated by ';'; never logged (in the file: a table of strings).", .telemetryHeaders, valueName: "headers"))
    var telemetryHeaders: String?

    @Option(name: .customLong("telemetry-export-interval"), help: settingHelp("Seconds between two exports of every metric (default 60, at least 1).", .telemetryExportInterval, valueName: "seconds"))
    var telemetryExportInterval: String?

    @Option(name: .customLong("telemetry-log-interval"), help: settingHelp("Seconds an audit record waits at most before it leaves, in a batch (default 10, at least 1).", .telemetryLogInterval, valueName: "seconds"))
    var telemetryLogInterval: String?

    @Option(name: .customLong("telemetry-batch-size"), help: settingHelp("Most log records in one request (default 512, 1 to 8192).", .telemetryBatchSize, valueName: "count"))
    var telemetryBatchSize: String?

    @Option(name: .customLong("telemetry-resource-attributes"), help: settingHelp("Resource attributes of every export, 'key=value' pairs separated by ',' (in the file: a table of strings).", .telemetryResourceAttributes, valueName: "attributes"))
    var telemetryResourceAttributes: String?

    @Option(name: .customLong("telemetry-compression"), help: settingHelp("gzip or none (default gzip).", .telemetryCompression, valueName: "compression"))
    var telemetryCompression: String?

    func add(to layer: inout SettingsLayer) {
        let texts: [(SettingKey, String?)] = [
            (.telemetryEndpoint, telemetryEndpoint), (.telemetryHeaders, telemetryHeaders),
            (.telemetryExportInterval, telemetryExportInterval), (.telemetryLogInterval, telemetryLogInterval),
            (.telemetryBatchSize, telemetryBatchSize), (.telemetryResourceAttributes, telemetryResourceAttributes),
            (.telemetryCompression, telemetryCompression),
        ]
        for case (let key, let text?) in texts { layer.values[key] = .text(text) }
    }
}

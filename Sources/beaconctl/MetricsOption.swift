import ArgumentParser
import BeaconRuntime

/// The demo's `--metrics-address` option (`run` takes it among its settings).
struct MetricsOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Serve Prometheus metrics at http://<address>/metrics: PORT or HOST:PORT; a bare port or localhost means 127.0.0.1.",
            valueName: "address"),
        transform: { text in
            do { return try MetricsAddress(parsing: text) } catch { throw ValidationError("\(error)") }
        })
    var metricsAddress: MetricsAddress?
}

import Foundation
import Testing

/// Where the collector double is, and the Python it runs on: the venv that scripts/otlp-venv.sh
/// makes with the official OTLP definitions.
enum CollectorInterpreter {
    /// `make test` names the venv's interpreter here for the end-to-end step.
    static let variable = "BEACONCTL_OTLP_PYTHON"

    static let packageDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let script = packageDirectory + "/scripts/otlp-collector/collector.py"
    static let venvPython = packageDirectory + "/.build/otlp-venv/bin/python"

    /// The variable's interpreter when it is set, whether it works or not: a double that cannot
    /// start then fails the tests that use it, never skips them. Unset (a `swift test` by hand),
    /// the package's venv when it was made; else nil, and those tests are skipped.
    static let path: String? = {
        if let named = ProcessInfo.processInfo.environment[variable], !named.isEmpty { return named }
        return FileManager.default.isExecutableFile(atPath: venvPython) ? venvPython : nil
    }()

    static var isAvailable: Bool { path != nil }

    /// Why the tests that use the double are skipped.
    static let skipped = Comment(
        rawValue: "no collector double: \(variable) is unset and .build/otlp-venv is not made "
            + "(scripts/otlp-venv.sh makes it; `make test` makes it and sets the variable)")
}

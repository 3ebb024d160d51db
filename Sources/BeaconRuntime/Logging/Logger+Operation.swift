import BeaconDomain
import Logging

extension Logger {
    /// A copy whose lines show `#name` (and `[component]` when given): what part of the work they are about.
    ///
    /// Set once per logger rather than per line, so `LineLogHandler` renders it once.
    package func operation(_ name: String, component: String? = nil) -> Logger {
        var logger = self
        if let component { logger[metadataKey: "component"] = "\(component)" }
        logger[metadataKey: "operation"] = "\(name)"
        return logger
    }
}

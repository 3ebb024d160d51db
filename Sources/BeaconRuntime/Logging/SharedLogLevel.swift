import BeaconDomain
import Logging
import Synchronization

/// The log level every logger follows unless it set its own, so that a reload changes it for all at once.
package final class SharedLogLevel: Sendable {
    private let index: Atomic<Int>

    package init(_ level: Logger.Level) {
        index = Atomic(Self.index(of: level))
    }

    package var level: Logger.Level {
        get { Logger.Level.allCases[index.load(ordering: .relaxed)] }
        set { index.store(Self.index(of: newValue), ordering: .relaxed) }
    }

    private static func index(of level: Logger.Level) -> Int {
        Logger.Level.allCases.firstIndex(of: level) ?? 0
    }
}

import BeaconDomain
import Synchronization

/// Per-box state without a state directory: an installation id for this process's life, the
/// privacy status until it ends.
package final class InMemoryReporterState: ReporterStateStore {
    private let id: String
    private let privacy = Mutex(PrivacyStatus.optIn)

    package init(installationID: String) {
        id = installationID
    }

    package func installationID() -> String { id }

    package func privacyStatus() -> PrivacyStatus { privacy.withLock { $0 } }

    package func setPrivacyStatus(_ status: PrivacyStatus) throws(ReporterStateError) {
        privacy.withLock { $0 = status }
    }
}

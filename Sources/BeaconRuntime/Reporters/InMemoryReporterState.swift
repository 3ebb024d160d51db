import BeaconDomain
import Synchronization

/// Per-box state without a state directory: an installation id for this process's life, the
/// privacy status and the media-analytics backlog until it ends.
package final class InMemoryReporterState: ReporterStateStore {
    private let id: String
    private let privacy = Mutex<PrivacyStatus?>(nil)
    private let backlog = Mutex<String?>(nil)

    package init(installationID: String) {
        id = installationID
    }

    package func installationID() -> String { id }

    package func privacyStatus() -> PrivacyStatus? { privacy.withLock { $0 } }

    package func setPrivacyStatus(_ status: PrivacyStatus) throws(ReporterStateError) {
        privacy.withLock { $0 = status }
    }

    package func mediaAnalyticsBacklog() -> String? { backlog.withLock { $0 } }

    package func keepMediaAnalyticsBacklog(_ kept: String) throws(ReporterStateError) {
        backlog.withLock { $0 = kept }
    }
}

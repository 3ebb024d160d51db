import Synchronization

/// A simulated service, set once its server is up: the server's handler answers through it,
/// and the service needs the server's port (its URLs, its beacon URLs).
final class ServiceBox<Service: Sendable>: Sendable {
    private let storage = Mutex<Service?>(nil)
    var service: Service? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}

import BeaconDomain
import Synchronization

/// The results of beacon requests, handed from the tasks that made them to the daemon in batches,
/// so that every result that arrived during one journal commit goes into the next one.
final class RequestResults: Sendable {
    typealias Entry = (key: BeaconDelivery.Key, result: RequestResult)

    private let entries = Mutex<[Entry]>([])
    private let wakeup = Wakeup()

    func add(_ result: RequestResult, of key: BeaconDelivery.Key) {
        entries.withLock { $0.append((key, result)) }
        wakeup.signal()
    }

    /// Every result added since the last call, waiting for one if there is none; empty once cancelled.
    func next() async -> [Entry] {
        while true {
            let taken = takeAll()
            if !taken.isEmpty || Task.isCancelled { return taken }
            await wakeup.wait()
        }
    }

    /// Every result added since the last call, without waiting.
    func takeAll() -> [Entry] {
        entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
    }
}

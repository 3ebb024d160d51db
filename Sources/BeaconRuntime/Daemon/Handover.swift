import Synchronization

/// Values handed from any thread to one task in batches: whatever arrived while that task was
/// busy is taken in one go. Request results reach the daemon this way, one journal commit for all
/// that finished meanwhile, and so do the effects whose write the journal acknowledged.
final class Handover<Element: Sendable>: Sendable {
    private let entries = Mutex<[Element]>([])
    private let wakeup = Wakeup()

    func add(_ element: Element) {
        entries.withLock { $0.append(element) }
        wakeup.signal()
    }

    /// Every value added since the last call, waiting for one if there is none; empty once cancelled.
    func next() async -> [Element] {
        while true {
            let taken = takeAll()
            if !taken.isEmpty || Task.isCancelled { return taken }
            await wakeup.wait()
        }
    }

    /// Every value added since the last call, without waiting.
    func takeAll() -> [Element] {
        entries.withLock { entries in
            defer { entries = [] }
            return entries
        }
    }
}

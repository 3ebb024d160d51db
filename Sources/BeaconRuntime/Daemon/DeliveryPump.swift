import BeaconDomain
import Synchronization

/// Sends beacon requests and hands their results back: requests start as the journal acknowledges
/// their deliveries in flight, results come back in batches (a ``Handover``), and the retry
/// timer (``Wakeup``) wakes the daemon when a retry falls due.
final class DeliveryPump: Sendable {
    private let sender: Mutex<BeaconSender>
    /// Whether the `beacons` reporter is enabled: when it is not, a batch is sent nowhere, as in quiet mode.
    private let beaconsEnabled: @Sendable () -> Bool
    /// Deliveries whose request may leave now, a batch at a time.
    private let started: AsyncStream<[BeaconDelivery]>
    private let startedInput: AsyncStream<[BeaconDelivery]>.Continuation
    /// Woken when a retry is scheduled sooner than the timer sleeps.
    let timer = Wakeup()
    /// Results of requests, taken in batches: one journal commit for all that finished meanwhile.
    let results = Handover<(key: BeaconDelivery.Key, result: RequestResult)>()

    init(sender: BeaconSender, beaconsEnabled: @escaping @Sendable () -> Bool = { true }) {
        self.sender = Mutex(sender)
        self.beaconsEnabled = beaconsEnabled
        (started, startedInput) = AsyncStream.makeStream()
    }

    /// Compute everything, send nothing: from the next batch on.
    func setQuiet(_ quiet: Bool) {
        sender.withLock { $0.quiet = quiet }
    }

    /// Requests these deliveries; call it once their in-flight state is on disk.
    func start(_ deliveries: [BeaconDelivery]) {
        guard !deliveries.isEmpty else { return }
        startedInput.yield(deliveries)
    }

    /// No request starts any more: ``run()`` returns once those under way have ended.
    func finish() {
        startedInput.finish()
    }

    /// Requests each batch of started deliveries in a task of its own, the whole batch in one hand-over.
    func run() async {
        await withDiscardingTaskGroup { group in
            for await batch in started {
                var sender = sender.withLock { $0 }
                sender.beaconsDisabled = !beaconsEnabled()
                group.addTask {
                    await sender.send(batch.map(\.sentURL)) { index, result in
                        // Reported under the URL as in the metadata: the one logs and history show, never an expanded [IFA].
                        var reported = result
                        reported.url = batch[index].key.url
                        self.results.add((batch[index].key, reported))
                    }
                }
            }
        }
    }
}

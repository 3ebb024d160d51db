import BeaconDomain
/// The log lines waiting for stderr, at most `capacity` bytes of them: a line that does not fit is
/// dropped and counted, so a reader of stderr that stalls costs log lines, never the daemon's work.
///
/// Where lines were dropped, the next batch taken says how many, at that place in the order: the
/// writer prints it there, once writing works again.
struct LogLineBuffer: Sendable {
    /// What the writer gets, in order.
    enum Entry: Sendable, Equatable {
        /// One whole line, newline included.
        case line([UInt8])
        /// This many lines were dropped here.
        case dropped(Int)
    }

    /// The most bytes of lines held at once.
    let capacity: Int
    private var entries: [Entry] = []
    private var bytes = 0
    /// Dropped since the last entry was kept: reported before the next line, or at the end of the next batch.
    private var unreportedDrops = 0
    /// Every line dropped since the start.
    private(set) var droppedTotal = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    var isEmpty: Bool { entries.isEmpty && unreportedDrops == 0 }

    /// Keeps `line` when it fits, else drops and counts it; returns whether it was kept.
    @discardableResult
    mutating func append(_ line: [UInt8]) -> Bool {
        guard bytes + line.count <= capacity else {
            unreportedDrops += 1
            droppedTotal += 1
            return false
        }
        reportDrops()
        entries.append(.line(line))
        bytes += line.count
        return true
    }

    /// Everything held, oldest first, with the drops where they happened; the buffer is then empty.
    mutating func takeAll() -> [Entry] {
        reportDrops()
        defer {
            entries = []
            bytes = 0
        }
        return entries
    }

    /// Counts `lines` taken but never written (stderr closed); no notice follows, as it would be lost too.
    mutating func lost(_ lines: Int) {
        droppedTotal += lines
    }

    private mutating func reportDrops() {
        guard unreportedDrops > 0 else { return }
        entries.append(.dropped(unreportedDrops))
        unreportedDrops = 0
    }
}

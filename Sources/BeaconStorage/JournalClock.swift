import BeaconDomain
/// One reading of the clocks, as the journal stores and reads times with it.
///
/// An instant (``BootClock``) means something within its boot only; so the journal keeps the id of
/// the boot its instants are of, and each row the wall-clock times a later boot needs. Within one
/// boot the instants are used as they are, whatever the wall clock did meanwhile; after a reboot a
/// time is estimated from its wall-clock time, which is all that survives it.
struct JournalClock: Sendable, Equatable {
    var bootID: String
    /// The monotonic instant now.
    var instant: Milliseconds
    /// The wall clock now.
    var wall: Milliseconds

    init(bootID: String, instant: Milliseconds, wall: Milliseconds) {
        self.bootID = bootID
        self.instant = instant
        self.wall = wall
    }

    init(_ time: TimeSource) {
        self.init(bootID: time.bootID, instant: time.now(), wall: time.wallNow())
    }

    /// The wall-clock time of an instant of this boot, to store beside it.
    func wall(of instant: Milliseconds) -> Milliseconds {
        // Saturates: a time no clock reaches (a bound used as "never") must not trap.
        let (shifted, overflow) = instant.addingReportingOverflow(wall - self.instant)
        return overflow ? (instant < 0 ? .min : .max) : shifted
    }

}

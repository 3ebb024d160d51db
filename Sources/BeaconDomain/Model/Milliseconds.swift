/// A point in program time or wall time as epoch milliseconds, or a span in milliseconds.
///
/// The ad-tracking metadata speaks integer milliseconds; keeping them integral everywhere avoids
/// the rounding that binary floating point brings to program date times.
public typealias Milliseconds = Int64

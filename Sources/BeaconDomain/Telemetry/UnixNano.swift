/// The protocol's times: nanoseconds since the Unix epoch, as an unsigned 64-bit number.
package enum UnixNano {
    /// `milliseconds` since the epoch in nanoseconds: a time before the epoch is 0 (the protocol's
    /// "unknown"), one past the year 2554 the largest time there is.
    package static func of(_ milliseconds: Milliseconds) -> UInt64 {
        guard milliseconds > 0 else { return 0 }
        let (nanoseconds, overflow) = UInt64(milliseconds).multipliedReportingOverflow(by: 1_000_000)
        return overflow ? .max : nanoseconds
    }
}

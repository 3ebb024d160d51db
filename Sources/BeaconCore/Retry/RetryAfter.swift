/// Placeholder replaced by the Retry-After parser.
public enum RetryAfter {
    public static func delay(_ value: String, now: Milliseconds) -> Milliseconds? { nil }
}

#if canImport(Glibc)
import Glibc
#endif

/// The terminal on stdout, driven with ANSI escapes directly (no terminfo, no curses).
enum Terminal {
    /// Whether stdout is a terminal: else frames are written as plain text.
    static var isStandardOutput: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Colours unless `NO_COLOR` is set to anything non-empty (no-color.org).
    static func allowsColour(environment: [String: String]) -> Bool {
        environment["NO_COLOR"].map(\.isEmpty) ?? true
    }

    /// The terminal's columns, else `$COLUMNS`, else 80.
    static func columns(environment: [String: String]) -> Int {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        return 80
    }

    /// Clears the screen and hides the cursor; SIGINT and SIGTERM then restore it before exiting.
    static func enterLiveView() {
        signal(SIGINT) { signal in Terminal.restoreFromSignal(signal) }
        signal(SIGTERM) { signal in Terminal.restoreFromSignal(signal) }
        StandardOutput.writeText("\u{1B}[?25l\u{1B}[2J")
    }

    /// Shows the cursor again after the last frame.
    static func leaveLiveView() {
        StandardOutput.writeText(restore.description)
    }

    /// Draws `frame` over the previous one from the top left, clearing what it leaves behind.
    static func draw(_ frame: String) {
        let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
        StandardOutput.writeText("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\n") + "\u{1B}[J")
    }

    /// Resets colours and shows the cursor.
    private static let restore: StaticString = "\u{1B}[0m\u{1B}[?25h\n"

    /// Only async-signal-safe calls: write(2) and _exit(2).
    private static func restoreFromSignal(_ signal: Int32) {
        _ = write(STDOUT_FILENO, restore.utf8Start, restore.utf8CodeUnitCount)
        _exit(128 + signal)
    }
}

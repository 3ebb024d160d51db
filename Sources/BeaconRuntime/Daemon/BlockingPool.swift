import NIOPosix

/// File I/O off the daemon's journal thread (the reporters' SQLite bookmarks and media-analytics
/// backlog, the audit's reads) runs on a thread of NIO's blocking pool: never on an actor, the
/// cooperative pool or a reporter's task.
enum BlockingPool {
    /// `body`'s value or error; `shutDown` when the pool no longer runs work (the process ends).
    static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value, shutDown: @autoclosure () -> Failure
    ) async throws(Failure) -> Value {
        let result: Result<Value, Failure>
        do {
            result = try await NIOThreadPool.singleton.runIfActive { () -> Result<Value, Failure> in
                do throws(Failure) { return .success(try body()) } catch { return .failure(error) }
            }
        } catch {
            result = .failure(shutDown())
        }
        return try result.get()
    }
}

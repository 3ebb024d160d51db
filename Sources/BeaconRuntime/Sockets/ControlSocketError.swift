/// Why the control socket server could not start.
package enum ControlSocketError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A live server answers on the path; it is left alone.
    case alreadyListening(path: String)
    /// The path does not fit in `sun_path`.
    case pathTooLong(path: String, limit: Int)
    /// Something other than a socket exists at the path; it is left alone.
    case notASocket(path: String)
    case cannotCreateDirectory(path: String, reason: String)
    /// The socket's directory belongs to someone else, or others may write to it.
    case unsafeDirectory(path: String, reason: String)
    case cannotBind(path: String, reason: String)
    /// The listening socket failed while serving.
    case acceptFailed(path: String, reason: String)
    /// ``ControlSocketServer/bind()`` or ``ControlSocketServer/run()`` was called twice.
    case alreadyStarted

    package var description: String {
        switch self {
        case .alreadyListening(let path): "another beaconctl is listening on \(path)"
        case .pathTooLong(let path, let limit):
            "control socket path is \(path.utf8.count) bytes, longer than the \(limit) a Unix socket allows: \(path)"
        case .notASocket(let path): "\(path) exists and is not a socket; not replacing it"
        case .cannotCreateDirectory(let path, let reason): "cannot create directory \(path): \(reason)"
        case .unsafeDirectory(let path, let reason):
            "refusing to put the control socket in \(path): \(reason); use a directory only this user may write to"
        case .cannotBind(let path, let reason): "cannot listen on \(path): \(reason)"
        case .acceptFailed(let path, let reason): "control socket \(path) stopped accepting connections: \(reason)"
        case .alreadyStarted: "the control socket server was already started"
        }
    }
}

import BeaconDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File-system helpers around a Unix domain socket path, shared by the server and the client.
enum UnixSocketPath {
    /// The longest path `sun_path` holds, its terminating NUL excluded (107 on Linux).
    static let maxPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// What a probe connection to an existing path found.
    enum Probe: Equatable {
        /// Something accepted (or queued) the connection.
        case live
        /// A socket file nobody listens on.
        case stale
        /// Nothing at the path.
        case missing
        case failed(errno: Int32)
    }

    /// Connects without blocking and hangs up at once, to learn whether a server listens at `path`.
    static func probe(_ path: String) -> Probe {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return .failed(errno: errno) }
        defer { close(fd) }
        #if !canImport(Glibc)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        #endif
        let result = withSocketAddress(path) { address, length in connect(fd, address, length) }
        if result == 0 { return .live }
        switch errno {
        // A full backlog still means a live server.
        case EAGAIN, EINPROGRESS: return .live
        case ECONNREFUSED: return .stale
        case ENOENT: return .missing
        case let code: return .failed(errno: code)
        }
    }

    /// Calls `body` with a `sockaddr_un` for `path`, which must fit (see ``maxPathBytes``).
    static func withSocketAddress<R>(
        _ path: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
    ) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        precondition(bytes.count <= maxPathBytes, "socket path too long")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// The directory part of `path`, or nil for a bare file name.
    static func parentDirectory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// Creates `directory` and any missing parents with mode 0700; an existing one is left as it is.
    static func ensureDirectory(_ directory: String) throws(ControlSocketError) {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw .cannotCreateDirectory(path: directory, reason: "exists and is not a directory")
            }
            return
        }
        guard errno == ENOENT else {
            throw .cannotCreateDirectory(path: directory, reason: errorText(errno))
        }
        if let parent = parentDirectory(of: directory), parent != directory {
            try ensureDirectory(parent)
        }
        if mkdir(directory, 0o700) != 0 && errno != EEXIST {
            throw .cannotCreateDirectory(path: directory, reason: errorText(errno))
        }
    }

    /// Checks that `directory` belongs to this user and that no one else may write to it: in a
    /// directory others can write to, they could replace the socket file with their own and
    /// read what clients send.
    static func checkPrivate(_ directory: String) throws(ControlSocketError) {
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw .unsafeDirectory(path: directory, reason: errorText(errno))
        }
        if info.st_uid != geteuid() {
            throw .unsafeDirectory(path: directory, reason: "it belongs to uid \(info.st_uid), not to this user (uid \(geteuid()))")
        }
        if info.st_mode & (S_IWGRP | S_IWOTH) != 0 {
            throw .unsafeDirectory(path: directory, reason: "others may write to it (mode \(String(info.st_mode & 0o7777, radix: 8)))")
        }
    }

    /// Device and inode of the file at `path`, to recognise our own socket file later.
    static func identity(of path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), mode: UInt32(info.st_mode))
    }

    static func errorText(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

struct FileIdentity: Sendable, Equatable {
    var device: UInt64
    var inode: UInt64
    var mode: UInt32

    var isSocket: Bool { mode & UInt32(S_IFMT) == UInt32(S_IFSOCK) }

    func sameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }
}

import Foundation

/// The TCP addresses a process listens on, read from /proc: its socket inodes matched against
/// the listening entries of /proc/net/tcp and tcp6.
enum ListeningSockets {
    /// `127.0.0.1:PORT` for IPv4, `[<hex>]:PORT` for IPv6, sorted.
    static func tcp(ofProcess pid: Int32) throws -> [String] {
        let fdDirectory = "/proc/\(pid)/fd"
        var inodes: Set<String> = []
        for entry in try FileManager.default.contentsOfDirectory(atPath: fdDirectory) {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(fdDirectory)/\(entry)"),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(String(target.dropFirst("socket:[".count).dropLast()))
        }
        var addresses: [String] = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            guard let text = readToEnd(table) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                let fields = line.split(separator: " ")
                let local = fields.count > 9 ? fields[1].split(separator: ":") : []
                guard local.count == 2, fields[3] == "0A", inodes.contains(String(fields[9])), let port = Int(local[1], radix: 16) else {
                    continue
                }
                addresses.append("\(host(hex: local[0])):\(port)")
            }
        }
        return addresses.sorted()
    }

    /// The whole of a /proc file, read until EOF: it reports size 0 and comes a page per read.
    private static func readToEnd(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes.append(contentsOf: chunk[..<count])
        }
    }

    /// An IPv4 address is printed as a 32-bit word in host order (little-endian here).
    private static func host(hex: Substring) -> String {
        guard hex.count == 8, let word = UInt32(hex, radix: 16) else { return "[\(hex)]" }
        return (0..<4).map { String((word >> (8 * $0)) & 0xFF) }.joined(separator: ".")
    }
}

import Foundation

/// One HTTP/1.1 exchange over a plain TCP connection to 127.0.0.1, written and read byte for
/// byte, so a test sees the status line and headers exactly as the server sent them.
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: String

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    /// Sends `METHOD target` with `Connection: close`, `headers` and `body` (with its Content-Length
    /// when there is one), and reads the response to its end.
    static func request(
        _ method: String, _ target: String, port: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []
    ) async throws -> Response {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        let payload = Array((head + "\r\n").utf8) + body
        let raw = try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try blockingExchange(port: port, payload: payload) })
            }.start()
        }
        return try parse(raw, method: method)
    }

    private static func blockingExchange(port: Int, payload: [UInt8]) throws -> [UInt8] {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw TestFailure("connect 127.0.0.1:\(port): errno \(errno)") }
        guard payload.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == payload.count else {
            throw TestFailure("send: errno \(errno)")
        }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw TestFailure("recv: errno \(errno)") }
            if count == 0 { return received }
            received.append(contentsOf: chunk[..<count])
        }
    }

    private static func parse(_ raw: [UInt8], method: String) throws -> Response {
        let text = String(decoding: raw, as: UTF8.self)
        guard let headEnd = text.range(of: "\r\n\r\n") else { throw TestFailure("no complete response head: \(text.prefix(500))") }
        let headLines = text[..<headEnd.lowerBound].components(separatedBy: "\r\n")
        let statusParts = headLines[0].split(separator: " ")
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw TestFailure("bad status line: \(headLines[0])")
        }
        let headers = headLines.dropFirst().map { line -> (name: String, value: String) in
            let colon = line.firstIndex(of: ":") ?? line.endIndex
            return (String(line[..<colon]), line[colon...].dropFirst().trimmingCharacters(in: .whitespaces))
        }
        let response = Response(status: status, headers: headers, body: String(text[headEnd.upperBound...]))
        let declared = response.header("Content-Length").flatMap(Int.init)
        if method != "HEAD", let declared, declared != response.body.utf8.count {
            throw TestFailure("Content-Length \(declared) but \(response.body.utf8.count) body bytes")
        }
        return response
    }
}

import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The server's own rules: bounded bodies, a clear error when the address is taken.
@Suite(.timeLimit(.minutes(2))) struct HTTPServerTests {
    @Test func aBodyUpToTheBoundIsReadAndOneByteMoreIsRefused() async throws {
        let server = try await HTTPServer.start(maxRequestBodyBytes: 16) { request in .text("\(request.body.count)") }
        let client = CurlHTTPClient(userAgent: "beaconctl/test")
        func post(_ count: Int) async throws -> HTTPClientResponse {
            try await client.send(
                HTTPClientRequest(method: .post, url: "\(server.baseURL)/", body: Array(repeating: 0x62, count: count), maxResponseBytes: 1024))
        }
        let fits = try await post(16)
        let over = try await post(17)
        let afterwards = try await post(1)
        await client.shutdown()
        await server.stop()
        #expect(fits.status == 200)
        #expect(String(decoding: fits.body, as: UTF8.self) == "16")
        #expect(over.status == 413)
        #expect(afterwards.status == 200, "a refused request does not stop the server")
    }

    /// Connections arriving while the server stops are each closed: none is left to NIO unclosed
    /// (a dropped one traps the process). Many rounds make the race likely.
    @Test func stoppingWhileConnectionsArriveClosesEachOfThem() async throws {
        for _ in 0..<40 {
            let server = try await HTTPServer.start { _ in .text("ok") }
            let port = UInt16(server.port)
            let sockets = (0..<16).map { _ in Self.connect(to: port) }
            await server.stop()
            for socket in sockets where socket >= 0 { close(socket) }
            #expect(sockets.allSatisfy { $0 >= 0 })
        }
    }

    /// A blocking loopback connect: the kernel completes it from the backlog, whether or not the server accepted yet.
    private static func connect(to port: UInt16) -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if connected != 0 {
            close(socket)
            return -1
        }
        return socket
    }

    @Test func anAddressInUseIsAClearError() async throws {
        let first = try await HTTPServer.start { _ in .status(200) }
        await #expect(throws: HTTPServerError.cannotListen(host: "127.0.0.1", port: first.port, reason: "Address already in use")) {
            let second = try await HTTPServer.start(port: first.port) { _ in .status(200) }
            await second.stop()
        }
        await first.stop()
        let description = HTTPServerError.cannotListen(host: "::1", port: 9464, reason: "Address already in use").description
        #expect(description == "cannot listen on [::1]:9464: Address already in use")
    }
}

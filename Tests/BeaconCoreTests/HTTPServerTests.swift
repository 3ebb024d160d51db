import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

/// The server's own rules: bounded bodies, a clear error when the address is taken.
@Suite struct HTTPServerTests {
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

import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct MetricsAddressTests {
    @Test(arguments: [
        ("9464", "127.0.0.1", 9464),
        ("localhost:9464", "127.0.0.1", 9464),
        ("LocalHost:80", "127.0.0.1", 80),
        ("127.0.0.1:9464", "127.0.0.1", 9464),
        ("127.0.0.2:1", "127.0.0.2", 1),
        ("0.0.0.0:9464", "0.0.0.0", 9464),
        ("192.168.1.20:65535", "192.168.1.20", 65535),
        ("[::1]:9464", "::1", 9464),
        ("[0:0:0:0:0:0:0:1]:9464", "::1", 9464),
        ("[::]:9464", "::", 9464),
        ("0", "127.0.0.1", 0),
    ])
    func parses(text: String, host: String, port: Int) throws {
        let address = try MetricsAddress(parsing: text)
        #expect(address.host == host)
        #expect(address.port == port)
    }

    @Test(arguments: [
        ("", "expected PORT or HOST:PORT"),
        ("metrics", "expected PORT or HOST:PORT"),
        (":9464", "0.0.0.0:PORT for every interface"),
        ("65536", "port must be a number from 0 to 65535"),
        ("99999999999999999999", "port must be a number"),
        ("127.0.0.1:", "port must be a number"),
        ("127.0.0.1:+80", "port must be a number"),
        ("127.0.0.1:-1", "port must be a number"),
        ("127.0.0.1:80x", "port must be a number"),
        ("127.0.0.1:٣", "port must be a number"),
        ("example.com:9464", "must be an IP address or localhost"),
        ("127.1:9464", "must be an IP address or localhost"),
        ("256.0.0.1:9464", "must be an IP address or localhost"),
        ("::1:9464", "put an IPv6 address in brackets"),
        ("[::1]9464", "expected [IPV6]:PORT"),
        ("[::1", "expected [IPV6]:PORT"),
    ])
    func refusesWithAReason(text: String, reason: String) {
        #expect {
            try MetricsAddress(parsing: text)
        } throws: { error in
            let description = "\(error)"
            return description.contains(reason) && description.contains("'\(text)'")
        }
    }

    @Test func printsHostAndPortWithIPv6InBrackets() throws {
        #expect(try MetricsAddress(parsing: "9464").description == "127.0.0.1:9464")
        #expect(try MetricsAddress(parsing: "[::1]:9464").description == "[::1]:9464")
    }

    @Test(arguments: [("9464", true), ("127.0.0.9:1", true), ("[::1]:1", true), ("0.0.0.0:1", false), ("[::]:1", false), ("10.0.0.1:1", false)])
    func knowsWhetherOnlyThisHostCanConnect(text: String, loopback: Bool) throws {
        #expect(try MetricsAddress(parsing: text).isLoopback == loopback)
    }
}

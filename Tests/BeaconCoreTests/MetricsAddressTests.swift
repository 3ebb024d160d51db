import Testing

@testable import BeaconCore

@Suite struct MetricsAddressTests {
    @Test(arguments: [
        ("9100", "127.0.0.1", 9100),
        ("localhost:9100", "127.0.0.1", 9100),
        ("127.0.0.1:1", "127.0.0.1", 1),
        ("0.0.0.0:65535", "0.0.0.0", 65535),
        ("192.168.1.20:9100", "192.168.1.20", 9100),
        ("[::1]:9100", "::1", 9100),
        ("[::]:9100", "::", 9100),
        ("[fe80::1]:80", "fe80::1", 80),
        ("box-7.example.com:9100", "box-7.example.com", 9100),
    ])
    func parses(text: String, host: String, port: Int) throws {
        #expect(try MetricsAddress.parse(text).get() == MetricsAddress(host: host, port: port))
    }

    @Test(arguments: [
        ("", MetricsAddress.expected),
        ("0", MetricsAddress.expected),
        ("65536", MetricsAddress.expected),
        ("-1", MetricsAddress.expected),
        ("+9100", MetricsAddress.expected),
        ("localhost", MetricsAddress.expected),
        ("localhost:", MetricsAddress.expected),
        ("127.0.0.1:http", MetricsAddress.expected),
        ("127.0.0.1:٩١٠٠", MetricsAddress.expected),
        (":9100", "'' is not an IP address or host name"),
        ("999.1.1.1:9100", "'999.1.1.1' is not an IP address or host name"),
        ("bad_host:9100", "'bad_host' is not an IP address or host name"),
        ("-a.example:9100", "'-a.example' is not an IP address or host name"),
        ("a..example:9100", "'a..example' is not an IP address or host name"),
        ("::1:9100", "write an IPv6 address in brackets: [::1]:PORT"),
        ("[::1]9100", MetricsAddress.expected),
        ("[::1", MetricsAddress.expected),
        ("[1.2.3.4]:9100", "'1.2.3.4' is not an IPv6 address"),
        ("[::g]:9100", "'::g' is not an IPv6 address"),
    ])
    func refuses(text: String, reason: String) {
        #expect(throws: MetricsAddress.ParseFailure(reason)) { try MetricsAddress.parse(text).get() }
    }

    @Test(arguments: ["127.0.0.1:9100", "[::1]:9100", "box.example:80"])
    func itsDescriptionParsesBackToIt(text: String) throws {
        let address = try MetricsAddress.parse(text).get()
        #expect(address.description == text)
        #expect(try MetricsAddress.parse(address.description).get() == address)
    }
}

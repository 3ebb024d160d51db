import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct URLPolicyTests {
    @Test(arguments: ["http://127.0.0.1:4647/beacon?t=1", "HTTPS://ads.example.com/b", "http://[::1]:80/"])
    func httpAndHttpsWithAHostMayBeRequested(url: String) {
        #expect(URLPolicy.refusal(of: url) == nil)
    }

    @Test(arguments: [
        ("file:///etc/passwd", "scheme 'file'"),
        ("dict://127.0.0.1/", "scheme 'dict'"),
        ("ftp://127.0.0.1/x", "scheme 'ftp'"),
        ("javascript:alert(1)", "scheme 'javascript'"),
        ("/relative/path", "not a valid URL"),
        ("http:///nohost", "no host"),
    ])
    func otherURLsAreRefusedWithAReason(url: String, reason: String) throws {
        let refusal = try #require(URLPolicy.refusal(of: url))
        #expect(refusal.contains(reason), "\(refusal)")
    }

    @Test func overlongURLsAreRefused() {
        let url = "http://127.0.0.1/" + String(repeating: "a", count: URLPolicy.maxURLLength)
        #expect(URLPolicy.refusal(of: url)?.contains("longer than") == true)
    }
}

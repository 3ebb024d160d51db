@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting
import Testing

/// The sender over a client that only knows single requests: the protocol's own batch runs them.
@Suite("BeaconSender", .timeLimit(.minutes(2)))
struct BeaconSenderTests {
    let urls = [
        "http://127.0.0.1:9/impression",
        "ftp://127.0.0.1/start",
        "http://127.0.0.1:9/midpoint",
        "http://127.0.0.1:9/complete",
    ]

    func reports(of sender: BeaconSender) async -> [Int: [RequestResult]] {
        let reports = Recorder<(Int, RequestResult)>()
        await sender.send(urls) { index, result in reports.append((index, result)) }
        return Dictionary(grouping: reports.all, by: \.0).mapValues { $0.map(\.1) }
    }

    @Test func eachURLIsReportedOnceByItsIndexWithWhatBecameOfIt() async {
        let client = ScriptedHTTPClient([
            urls[0]: [.status(204)],
            urls[2]: [.error(.timedOut)],
            urls[3]: [.status(503)],
        ])
        let byIndex = await reports(of: BeaconSender(client: client, quiet: false))
        #expect(byIndex.count == 4 && byIndex.values.allSatisfy { $0.count == 1 })
        #expect(byIndex[0]?.first?.outcome == .answered(status: 204))
        #expect(byIndex[0]?.first?.isSuccess == true)
        #expect(byIndex[1]?.first?.outcome == .refused(URLPolicy.refusal(of: urls[1]) ?? "-"))
        #expect(byIndex[2]?.first?.outcome == .failed(.timedOut))
        #expect(byIndex[3]?.first?.outcome == .answered(status: 503))
        #expect(byIndex.allSatisfy { index, results in results.first?.url == urls[index] })
        #expect(Set(client.requests.all) == [urls[0], urls[2], urls[3]], "a refused URL is never requested")
    }

    @Test func quietSendsNothingAndCountsEveryAllowedURLAsReported() async {
        let client = ScriptedHTTPClient([:])
        let byIndex = await reports(of: BeaconSender(client: client, quiet: true))
        #expect(byIndex.count == 4)
        #expect([0, 2, 3].allSatisfy { byIndex[$0]?.first?.outcome == .notSent(.quiet) })
        if case .refused? = byIndex[1]?.first?.outcome {} else { Issue.record("the ftp URL is refused even when quiet") }
        #expect(client.requests.all.isEmpty)
    }
}

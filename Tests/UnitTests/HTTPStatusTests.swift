import BeaconDomain
import BeaconHTTP
import BeaconStorage
import BeaconRuntime
import BeaconTerminal
import BeaconTesting
import Testing

@Suite(.timeLimit(.minutes(2))) struct HTTPStatusTests {
    @Test(arguments: [200, 201, 204, 299])
    func twoHundredsAreSuccess(status: Int) {
        #expect(HTTPStatus.isSuccess(status))
        #expect(!HTTPStatus.mayPassLater(status))
    }

    @Test(arguments: [199, 300, 302, 304, 400, 404, 410, 429, 500, 503])
    func anythingElseIsNot(status: Int) {
        #expect(!HTTPStatus.isSuccess(status))
    }

    @Test(arguments: [429, 500, 502, 503, 504, 599])
    func tooManyRequestsAndServerErrorsMayPassLaterAndTheirRetryAfterCounts(status: Int) {
        #expect(HTTPStatus.mayPassLater(status))
        #expect(HTTPStatus.requestedWait(status: status, retryAfter: "7", wallNow: 0) == 7_000)
        #expect(HTTPStatus.requestedWait(status: status, retryAfter: nil, wallNow: 0) == nil)
        #expect(HTTPStatus.requestedWait(status: status, retryAfter: "soon", wallNow: 0) == nil)
    }

    @Test(arguments: [200, 301, 400, 404, 410, 600])
    func aRetryAfterOnAStatusNotRetriedMeansNothing(status: Int) {
        #expect(!HTTPStatus.mayPassLater(status))
        #expect(HTTPStatus.requestedWait(status: status, retryAfter: "7", wallNow: 0) == nil)
    }

    @Test func aResponseReadsItsStatusByTheSameRule() {
        let busy = HTTPClientResponse(status: 500, finalURL: "http://127.0.0.1/m", body: [], latencyMilliseconds: 1, retryAfter: "3")
        #expect(!busy.isSuccess)
        #expect(busy.requestedWait(wallNow: 0) == 3_000)
        let fine = HTTPClientResponse(status: 204, finalURL: "http://127.0.0.1/m", body: [], latencyMilliseconds: 1, retryAfter: "3")
        #expect(fine.isSuccess)
        #expect(fine.requestedWait(wallNow: 0) == nil)
    }
}

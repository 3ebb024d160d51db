import Testing
@testable import BeaconDomain
@testable import BeaconRuntime

/// A refused line is logged with its heartbeat token masked.
@Suite(.timeLimit(.minutes(2))) struct SecretRedactionTests {
    @Test(arguments: [
        (#"load http://h/m {"heartbeat": {"flag": true, "token": "s3cr\"et", "freq": 5}}"#,
            #"load http://h/m {"heartbeat": {"flag": true, "token": "***", "freq": 5}}"#),
        (#"{"token" :  12345}"#, #"{"token" :  ***}"#),
        (#"{"token":"a"} {"token": "b"#, #"{"token":"***"} {"token": "***""#),
        (#"{"token" "a"}"#, #"{"token" "a"}"#),
        ("no secret here", "no secret here"),
        (#""token""#, #""token""#),
        // Quickplay's name for it, before and after ours.
        (#"{"heartbeatToken": "s3cret", "token": "b"}"#, #"{"heartbeatToken": "***", "token": "***"}"#),
        (#"{"token": 1, "heartbeatToken":"x"}"#, #"{"token": ***, "heartbeatToken":"***"}"#),
        // A playback's headers: each value masked, the names kept, under either name.
        (#"{"heartbeatHeaders": {"X-Api-Key": "k\"1", "X-N": 5}, "flag": true}"#, #"{"heartbeatHeaders": {"X-Api-Key": "***", "X-N": ***}, "flag": true}"#),
        (#"{"headers":{"A":"1","B":"2"}}"#, #"{"headers":{"A":"***","B":"***"}}"#),
        (#"{"headers": {}}"#, #"{"headers": {}}"#),
        (#"{"headers": {"A": "1""#, #"{"headers": {"A": "***""#),
    ] as [(String, String)])
    func tokensAreMasked(line: String, shown: String) {
        #expect(SecretRedaction.redacted(line) == shown)
    }

    @Test func theRefusedLineLogShowsNoToken() {
        let line = #"load http://h/m {"heartbeat": {"token": "s3cret", "freq": 1}}"#
        #expect(!RefusedLineLog.printable(SecretRedaction.redacted(line)).contains("s3cret"))
    }
}

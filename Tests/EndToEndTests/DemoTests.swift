import Testing

/// `beaconctl demo` runs on loopback only.
@Suite struct DemoTests {
    @Test func demoRunsForThreeSeconds() async throws {
        let result = try await runBeaconctl(["demo", "--duration", "3"], timeout: .seconds(30))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("simulated ad-insertion service on http://127.0.0.1:"), "\(result.stdout)")
        #expect(result.stdout.contains("summary:"), "\(result.stdout)")
    }
}

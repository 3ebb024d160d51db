import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

@Suite(.timeLimit(.minutes(2))) struct PlayedStretchesTests {
    func stretches(_ inserted: [ClosedRange<Milliseconds>]) -> PlayedStretches {
        var played = PlayedStretches()
        for stretch in inserted { played.insert(stretch) }
        return played
    }

    @Test(arguments: [
        ([0...10, 20...30], [0...10, 20...30]),
        ([20...30, 0...10], [0...10, 20...30]),
        ([0...10, 10...20], [0...20]),
        ([0...10, 5...20], [0...20]),
        ([0...10, 20...30, 40...50, 5...45], [0...50]),
        ([0...100, 10...20], [0...100]),
        ([40...50, 0...10, 20...30, 25...42], [0...10, 20...50]),
    ] as [([ClosedRange<Milliseconds>], [ClosedRange<Milliseconds>])])
    func keepsStretchesMergedAndOrdered(inserted: [ClosedRange<Milliseconds>], expected: [ClosedRange<Milliseconds>]) {
        #expect(stretches(inserted).ranges == expected)
    }

    @Test(arguments: [
        (0, 5, true),
        (-5, 0, true),
        (10, 19, true),
        (11, 14, false),
        (11, 19, true),
        (31, 40, false),
        (30, 30, true),
        (-10, -1, false),
        (-10, 100, true),
        (15, 15, true),
    ] as [(Milliseconds, Milliseconds, Bool)])
    func findsPlayedInstantsInAWindow(lower: Milliseconds, upper: Milliseconds, played: Bool) {
        #expect(stretches([0...10, 15...15, 20...30]).intersects(lower...upper) == played)
    }

    @Test func forgetsStretchesThatEndedBeforeTheCutoff() {
        var played = stretches([0...10, 20...30, 40...50])
        played.prune(endingBefore: 30)
        #expect(played.ranges == [20...30, 40...50])
        played.prune(endingBefore: 31)
        #expect(played.ranges == [40...50])
        #expect(!played.intersects(0...35))
    }
}

/// The interstitials of a session: whether its ads come as interstitials (interstitial mode), the
/// events told so far and the one playing. In interstitial mode the main playhead fires no ad:
/// an ad break is matched only by the ticks of the interstitial that covers it.
package struct InterstitialLog: Sendable, Equatable, Codable {
    /// An interstitial covers an ad break that starts within this of its place.
    package static let coverTolerance: Milliseconds = 1000
    /// The events kept: a session plays a few an hour; the oldest ended ones go first.
    package static let maxEvents = 64

    package private(set) var isOn = false
    package private(set) var events: [InterstitialState] = []
    /// The id of the event playing.
    package private(set) var currentID: String?

    package init(isOn: Bool = false) {
        self.isOn = isOn
    }

    package mutating func switchOn() { isOn = true }

    package subscript(id: String) -> InterstitialState? {
        events.first { $0.id == id }
    }

    package var current: InterstitialState? { currentID.flatMap { self[$0] } }

    /// The event covering an ad break that starts at `start`: the nearest whose place is within
    /// ``coverTolerance`` of it.
    package func covering(adBreakStartingAt start: Milliseconds) -> InterstitialState? {
        events.filter { abs($0.place - start) <= Self.coverTolerance }.min { abs($0.place - start) < abs($1.place - start) }
    }

    /// Starts (or, with a known id, resumes: `event` is then the one kept, updated) an event and
    /// makes it the one playing.
    package mutating func begin(_ event: InterstitialState) {
        isOn = true
        if let index = events.firstIndex(where: { $0.id == event.id }) {
            events[index] = event
            events[index].ended = nil
        } else {
            events.append(event)
            if events.count > Self.maxEvents, let oldest = events.firstIndex(where: { $0.ended != nil }) { events.remove(at: oldest) }
        }
        currentID = event.id
    }

    /// Changes the event `id`, if known.
    package mutating func update(_ id: String, _ change: (inout InterstitialState) -> Void) {
        guard let index = events.firstIndex(where: { $0.id == id }) else { return }
        change(&events[index])
    }

    /// The playing event ended.
    package mutating func finish(_ id: String, reason: InterstitialEnd.Reason) {
        update(id) { $0.ended = reason; $0.current = nil }
        if currentID == id { currentID = nil }
    }
}

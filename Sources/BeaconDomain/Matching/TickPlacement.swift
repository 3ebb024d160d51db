/// Puts a tick on its session's timeline: a session has one, set by its first metadata document.
///
/// A tick of the session's form is taken as it is. A tick of the other form is mapped when the
/// document says how the two timelines line up (`programDateTimeOffset`, program date time minus
/// media time), and refused otherwise: a position compared with dates (or the reverse) would
/// match nothing, silently. Before the first document, every tick is taken as it is: the two
/// timelines' valid times do not overlap, so a stretch played on one never covers an event of the other.
package enum TickPlacement {
    package static func place(_ tick: PlayheadTick, on timeline: Timeline?, offset: Milliseconds?) -> Result<PlacedTick, TickRefusal> {
        guard let timeline, tick.timeline != timeline else { return .success(PlacedTick(tick)) }
        guard let offset else {
            switch timeline {
            case .mediaTime:
                return .failure(
                    TickRefusal("a program date time tick on a media-time session (the metadata gives no program date time): send 'position <seconds>'"))
            case .programDateTime:
                return .failure(TickRefusal("a position tick on a program-date-time session: send 'playhead <epoch ms>'"))
            }
        }
        var placed = tick
        placed.timeline = timeline
        placed.playhead = timeline == .mediaTime ? tick.playhead - offset : tick.playhead + offset
        guard placed.playhead >= 0 else { return .failure(TickRefusal("the tick maps before the start of the stream")) }
        return .success(PlacedTick(placed))
    }
}

/// The position in the content alone: a media-time position minus the stitched ad breaks played
/// before it, as players keep bookmarks and resume points. Inside an ad break it stays where the
/// content stopped. Breaks may come in any order and overlap: time covered twice counts once.
package enum ContentPosition {
    package static func of(_ position: Milliseconds, breaks: [ClosedRange<Milliseconds>]) -> Milliseconds {
        var stitched: Milliseconds = 0
        var coveredUntil = Milliseconds.min
        for span in breaks.sorted(by: { $0.lowerBound < $1.lowerBound }) where span.lowerBound < position {
            let start = max(span.lowerBound, coveredUntil)
            let end = min(span.upperBound, position)
            if end > start { stitched += end - start }
            coveredUntil = max(coveredUntil, end)
        }
        return position - stitched
    }
}

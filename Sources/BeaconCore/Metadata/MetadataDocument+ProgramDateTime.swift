extension MetadataDocument {
    /// The document placed on program date time, when it is a media-time document that gives its
    /// offset (MediaTailor's `*ProgramDateTime`): every time plus the offset, so that a live player
    /// ticking in program date time matches it. Nil for a document that cannot be placed.
    public func onProgramDateTime() -> MetadataDocument? {
        guard timeline == .mediaTime, let offset = programDateTimeOffset else { return nil }
        func shift(_ time: Milliseconds) -> Milliseconds { time + offset }
        let pods = pods.map { pod in
            Pod(
                id: pod.id, startTime: shift(pod.startTime), duration: pod.duration,
                ads: pod.ads.map { ad in
                    var placed = ad
                    placed.startTime = shift(ad.startTime)
                    placed.trackingEvents = ad.trackingEvents.map { event in
                        var placed = event
                        placed.startTime = shift(event.startTime)
                        return placed
                    }
                    placed.attachedTracking = ad.attachedTracking.map { tracking in
                        var placed = tracking
                        placed.startTime = tracking.startTime.map(shift)
                        return placed
                    }
                    return placed
                })
        }
        return MetadataDocument(
            dataRange: DataRange(start: shift(dataRange.start), end: shift(dataRange.end)), pods: pods, timeline: .programDateTime)
    }
}

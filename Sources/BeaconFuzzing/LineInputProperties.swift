import BeaconDomain
import BeaconTesting
import BeaconRuntime
import BeaconSimulator

/// The `lines` target: bytes from stdin or the control socket.
///
/// Properties: framing matches ``LineFramingModel`` however the bytes are chunked, with the
/// daemon's limit and a tiny one; parsing is deterministic; an accepted command carries only
/// values the daemon can use (times within 1970...9999, finite non-negative rates, a trimmed
/// media URL; chapters, quality, error ids, state names, content and heartbeat options, and an
/// interstitial's times, indexes and ids within their rules); a refusal gives a reason that quotes a bounded part of the line; and the commands,
/// played into a session with an ad break just after the first playhead, keep ``SessionProbe``'s
/// guarantees.
enum LineInputProperties {
    /// A limit small enough for short inputs to cross it.
    static let tinyLimit = 24
    /// A refusal quotes at most 40 characters of the line, plus its own words.
    static let maxReasonCharacters = 200
    /// Program and wall time advance this much per input line.
    static let lineInterval: Milliseconds = 250

    static func check(_ input: [UInt8]) throws(PropertyViolation) -> Bool {
        var lines: [RawLine] = []
        for limit in [LineFramer.defaultMaxLineBytes, tinyLimit] {
            let expected = LineFramingModel.lines(of: input, maxLineBytes: limit)
            // Chunk sizes that cut CRLFs, multi-byte characters and the limit itself (tiny
            // chunks only for small inputs: feeding a long one byte by byte is slow and finds no more).
            let smallChunk = input.count <= 4096 ? 1 + input.count % 7 : 509 + input.count % 512
            for chunkSize in [max(input.count, 1), smallChunk, limit + 1] {
                let framed = frame(input, maxLineBytes: limit, chunkSize: chunkSize)
                try PropertyViolation.require(
                    framed == expected, "framing follows the line rules whatever the chunking",
                    "limit \(limit), chunks of \(chunkSize): \(framed.prefix(5)) where the rules give \(expected.prefix(5))")
            }
            if limit == LineFramer.defaultMaxLineBytes { lines = expected }
        }

        var accepted = false
        var player = LinePlayer()
        for case .text(let text) in lines {
            let result = LineParser.parse(text)
            try PropertyViolation.require(
                result == LineParser.parse(text), "parsing is deterministic", "'\(text.prefix(80))' parsed two ways")
            switch result {
            case .success(let command):
                accepted = true
                try checkAccepted(command, from: text)
                try player.play(command)
            case .failure(let error):
                try PropertyViolation.require(
                    !error.reason.isEmpty && error.reason.count <= maxReasonCharacters,
                    "a refusal has a reason of at most \(maxReasonCharacters) characters",
                    "\(error.reason.count) characters for '\(text.prefix(80))': \(error.reason.prefix(120))")
            }
            player.advance()
        }
        return accepted
    }

    /// The blanks the line protocol trims around a line and its argument.
    private static func isBlank(_ character: Character?) -> Bool { character == " " || character == "\t" }

    private static func frame(_ input: [UInt8], maxLineBytes: Int, chunkSize: Int) -> [RawLine] {
        var framer = LineFramer(maxLineBytes: maxLineBytes)
        var lines: [RawLine] = []
        var start = 0
        while start < input.count {
            let end = min(start + chunkSize, input.count)
            lines += framer.append(input[start..<end])
            start = end
        }
        return lines + framer.finish()
    }

    private static func checkAccepted(_ command: InputCommand, from text: String) throws(PropertyViolation) {
        let times = 0...MetadataDocument.latestTime
        switch command {
        case .playhead(let tick):
            try PropertyViolation.require(
                times.contains(tick.playhead) && tick.observedAt.map(times.contains) != false,
                "an accepted tick lies within 1970...9999", "'\(text.prefix(80))' gave \(tick)")
            try PropertyViolation.require(
                tick.rate.map { $0.isFinite && $0 >= 0 } != false, "an accepted rate is finite and non-negative",
                "'\(text.prefix(80))' gave \(tick)")
            if let quality = tick.quality { try checkQuality(quality, from: text) }
        case .player(.rate(let rate)):
            try PropertyViolation.require(
                rate.isFinite && rate >= 0, "an accepted rate is finite and non-negative", "'\(text.prefix(80))' gave \(rate)")
        case .load(let url, let options):
            try PropertyViolation.require(
                !url.isEmpty && !isBlank(url.first) && !isBlank(url.last), "an accepted media URL is trimmed and not empty",
                "'\(text.prefix(80))' gave '\(url.prefix(80))'")
            if let content = options.content { try checkContent(content, from: text) }
            if let heartbeat = options.heartbeat {
                try PropertyViolation.require(
                    heartbeat.freq.map { (HeartbeatOptions.minimumFrequency...HeartbeatOptions.maximumFrequency).contains($0) } != false
                        && heartbeat.liveStartTime.map(times.contains) != false && heartbeat.liveEndTime.map(times.contains) != false,
                    "an accepted heartbeat frequency and live times are within their ranges", "'\(text.prefix(80))' gave \(heartbeat)")
            }
        case .information(let information):
            try checkInformation(information, from: text)
        case .events(follow: false, let after):
            try PropertyViolation.require(after == nil, "plain 'events' takes no sequence", "'\(text.prefix(80))' gave \(command)")
        case .interstitial(let interstitial):
            try checkInterstitial(interstitial, from: text)
        case .player, .user, .unload, .status, .events, .reporter, .audit:
            break
        }
    }

    /// An interstitial's times lie in range as a tick's do: dates within 1970...9999, places and
    /// durations on media time; its ids are bounded and its asset indexes below the limit.
    private static func checkInterstitial(_ command: InterstitialCommand, from text: String) throws(PropertyViolation) {
        let dates = 0...MetadataDocument.latestTime
        let mediaTimes = MetadataDocument.validMediaTimes
        let id: String
        let timesInRange: Bool
        switch command {
        case .start(let start):
            id = start.id
            timesInRange = start.start.map(dates.contains) != false && [start.position, start.resumeOffset].allSatisfy { $0.map(mediaTimes.contains) != false }
                && start.assetList?.assets.allSatisfy { $0.duration.map { $0 > 0 && $0 <= MetadataDocument.longestDuration } != false } != false
        case .asset(let asset):
            id = asset.id
            timesInRange = (0..<AssetList.maxAssets).contains(asset.index) && asset.duration.map { $0 > 0 && mediaTimes.contains($0) } != false
        case .tick(let tick):
            id = tick.id
            timesInRange = (0..<AssetList.maxAssets).contains(tick.asset) && mediaTimes.contains(tick.position)
                && tick.observedAt.map(dates.contains) != false && tick.rate.map { $0.isFinite && $0 >= 0 } != false
        case .end(let end):
            id = end.id
            timesInRange = true
        }
        try PropertyViolation.require(
            timesInRange, "an accepted interstitial's times, durations, indexes and rate lie in range", "'\(text.prefix(80))' gave \(command)")
        try PropertyViolation.require(
            !id.isEmpty && id.utf8.count <= LineParser.maxInterstitialIDBytes, "an accepted interstitial id is not empty and bounded",
            "'\(text.prefix(80))' gave '\(id.prefix(80))'")
    }

    /// Chapters, quality, errors and states carry only what a reporter can send as it is.
    private static func checkInformation(_ information: PlayerInformation, from text: String) throws(PropertyViolation) {
        switch information {
        case .content(let content):
            try checkContent(content, from: text)
        case .chapterStart(let chapter):
            try PropertyViolation.require(
                chapter.index >= 1 && [chapter.offset, chapter.length].allSatisfy { $0.isFinite && $0 >= 0 },
                "an accepted chapter has an index from 1 and a finite non-negative offset and length", "'\(text.prefix(80))' gave \(chapter)")
        case .quality(let quality):
            try checkQuality(quality, from: text)
        case .error(let error):
            try PropertyViolation.require(
                isWord(error.id, maxLength: LineParser.maxErrorIDLength)
                    && error.message.map { !$0.isEmpty && !isBlank($0.first) && !isBlank($0.last) } != false,
                "an accepted error has a one-word id and a trimmed message", "'\(text.prefix(80))' gave \(error)")
        case .stateStart(let name), .stateEnd(let name):
            try PropertyViolation.require(
                isWord(name, maxLength: LineParser.maxStateNameLength), "an accepted state name is one bounded word",
                "'\(text.prefix(80))' gave '\(name.prefix(80))'")
        case .notice(let notice):
            try PropertyViolation.require(
                notice.code / 1_000 % 100 == ApplicationNotice.area && !notice.text.isEmpty
                    && notice.text.count <= ApplicationNotice.maxTextLength && !isBlank(notice.text.first) && !isBlank(notice.text.last),
                "an accepted notice has a code in the application's area and a trimmed bounded text", "'\(text.prefix(80))' gave \(notice)")
        case .chapterEnd, .chapterSkip, .privacy:
            break
        }
    }

    private static func checkContent(_ content: ContentInformation, from text: String) throws(PropertyViolation) {
        let namedKeys: Set<String> = ["id", "name", "length", "streamType"]
        try PropertyViolation.require(
            content.length.map { $0.isFinite && $0 >= 0 } != false
                && Set(content.standardMetadata.keys).isSubset(of: ContentInformation.standardMetadataKeys)
                && Set(content.customMetadata.keys).isDisjoint(with: ContentInformation.standardMetadataKeys.union(namedKeys)),
            "accepted content has no length or a finite non-negative one, and each metadata key in its place",
            "'\(text.prefix(80))' gave \(content)")
    }

    private static func checkQuality(_ quality: QualityOfService, from text: String) throws(PropertyViolation) {
        let counts = [quality.bitrate, quality.droppedFrames].compactMap { $0 }
        let measures = [quality.fps, quality.startupTime].compactMap { $0 }
        try PropertyViolation.require(
            !quality.isEmpty && counts.allSatisfy { $0 >= 0 } && measures.allSatisfy { $0.isFinite && $0 >= 0 },
            "accepted quality gives some key, none negative nor infinite", "'\(text.prefix(80))' gave \(quality)")
    }

    private static func isWord(_ text: String, maxLength: Int) -> Bool {
        !text.isEmpty && text.count <= maxLength && !text.contains { isBlank($0) }
    }

    /// Plays parsed commands into a session whose ad break starts 2 s after the first playhead.
    private struct LinePlayer {
        var probe = SessionProbe()
        var hasBreak = false
        var clock: Milliseconds = 1_700_000_000_000

        mutating func play(_ command: InputCommand) throws(PropertyViolation) {
            switch command {
            case .playhead(let tick):
                if !hasBreak {
                    hasBreak = true
                    try probe.apply(Self.adBreak(after: tick.playhead, on: tick.timeline))
                }
                try probe.observe(tick, arrivalTime: clock)
            case .player(let event): try probe.observe(event, arrivalTime: clock)
            case .user(let action): try probe.observe(action)
            case .load, .unload, .status, .events, .information, .reporter, .audit, .interstitial: break
            }
        }

        mutating func advance() { clock += LineInputProperties.lineInterval }

        /// On the tick's timeline: the session then takes every tick of its form.
        static func adBreak(after playhead: Milliseconds, on timeline: Timeline) -> MetadataDocument {
            let start = min(playhead + 2_000, MetadataDocument.latestTime - 60_000)
            let ads = (0..<2).map { index in
                StandardAd.make(id: "a\(index)", start: start + Milliseconds(index) * 8_000, duration: 8_000) { type in
                    ["http://127.0.0.1:9/\(index)/\(type)"]
                }
            }
            return MetadataDocument(
                dataRange: DataRange(start: max(0, start - 60_000), end: start + 16_000),
                adBreaks: [AdBreak(id: "break", startTime: start, duration: 16_000, ads: ads)], timeline: timeline)
        }
    }
}

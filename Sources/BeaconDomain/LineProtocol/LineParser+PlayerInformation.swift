/// The lines giving player information and commanding the reporters: `content {...}`,
/// `chapter-start {...}`, `bitrate <bps>`, `qos {...}`, `error player|application <id> [message]`,
/// `state-start <name>`, `state-end <name>`, `privacy optin|optout|unknown`, `notify <code> <text>`,
/// `reporter enable|disable <name>`, `reporter list` (`chapter-end` and `chapter-skip` are bare words).
extension LineParser {
    /// The longest player state name taken, as Media Collection's custom states allow.
    package static let maxStateNameLength = 64
    /// The longest error id taken: ids are codes, not prose; the message holds the prose.
    package static let maxErrorIDLength = 128

    /// The command of `word`, if it is one of these or an interstitial's line, or why its argument is refused.
    static func parsePlayerInformation(_ word: String, _ argument: String?) -> Result<InputCommand, LineError>? {
        guard let parse = playerInformationParsers[word] ?? interstitialParsers[word] else { return nil }
        guard let argument, !argument.isEmpty else { return .failure(LineError("'\(word)' needs an argument")) }
        return parse(argument)
    }

    private static let playerInformationParsers: [String: @Sendable (String) -> Result<InputCommand, LineError>] = [
        "content": { json in
            LineJSON.decode(ContentInformation.self, from: json, command: "content", form: #"{"id", "name", "length", "streamType", ...}"#)
                .map { .information(.content($0)) }
        },
        "chapter-start": { json in
            LineJSON.decode(Chapter.self, from: json, command: "chapter-start", form: #"{"index", "offset", "length", "name"}"#)
                .map { .information(.chapterStart($0)) }
        },
        "qos": { json in
            LineJSON.decode(QualityOfService.self, from: json, command: "qos", form: #"{"bitrate", "droppedFrames", "fps", "startupTime"}"#)
                .flatMap { quality in
                    quality.isEmpty
                        ? .failure(LineError("qos: gives none of bitrate, droppedFrames, fps, startupTime")) : .success(.information(.quality(quality)))
                }
        },
        "bitrate": { value in
            guard let bitrate = Double(value), bitrate.isFinite, bitrate >= 0, bitrate.rounded() == bitrate,
                bitrate <= Double(QualityOfService.maxCount)
            else { return .failure(LineError("bitrate '\(value.prefix(40))' is not a whole number of bits per second, 0 or more")) }
            return .success(.information(.quality(QualityOfService(bitrate: Int(bitrate)))))
        },
        "error": parseError,
        "state-start": { name in playerState(name, command: "state-start").map { .information(.stateStart($0)) } },
        "state-end": { name in playerState(name, command: "state-end").map { .information(.stateEnd($0)) } },
        "privacy": { value in
            guard let status = PrivacyStatus(rawValue: value) else {
                return .failure(LineError("privacy '\(value.prefix(40))' is none of " + PrivacyStatus.allCases.map(\.rawValue).joined(separator: ", ")))
            }
            return .success(.information(.privacy(status)))
        },
        "reporter": parseReporter,
        "notify": parseNotice,
    ]

    /// `<code> <text>`: the text is the rest of the line, as written.
    private static func parseNotice(_ argument: String) -> Result<InputCommand, LineError> {
        let parts = argument.split(maxSplits: 1, omittingEmptySubsequences: true, whereSeparator: isBlank)
        guard parts.count == 2, let code = Int(parts[0]) else { return .failure(LineError("notify takes a code and a text: 'notify 399001 <text>'")) }
        return ApplicationNotice.make(code: code, text: parts[1].trimmedOfWhitespace)
            .map { .information(.notice($0)) }
            .mapError { LineError("notify: \($0.reason)") }
    }

    /// `player|application <id> [message]`: the message is the rest of the line, as written.
    private static func parseError(_ argument: String) -> Result<InputCommand, LineError> {
        let parts = argument.split(maxSplits: 2, omittingEmptySubsequences: true, whereSeparator: isBlank)
        let sources = PlaybackError.Source.allCases.map(\.rawValue).joined(separator: " or ")
        guard let source = PlaybackError.Source(rawValue: String(parts[0])) else {
            return .failure(LineError("error source '\(parts[0].prefix(40))' is neither \(sources)"))
        }
        guard parts.count > 1 else { return .failure(LineError("error \(source.rawValue) needs an id: 'error \(source.rawValue) <id> [message]'")) }
        guard parts[1].count <= maxErrorIDLength else {
            return .failure(LineError("error id '\(parts[1].prefix(40))...' is longer than \(maxErrorIDLength) characters"))
        }
        let message = parts.count > 2 ? parts[2].trimmedOfWhitespace : nil
        return .success(.information(.error(PlaybackError(source: source, id: String(parts[1]), message: message))))
    }

    /// One word of letters, digits, `_`, `-` and `.`, as state names are (`fullScreen`, `closedCaptioning`).
    private static func playerState(_ name: String, command: String) -> Result<String, LineError> {
        guard !name.isEmpty, name.count <= maxStateNameLength,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) })
        else {
            return .failure(LineError(
                "\(command): '\(name.prefix(40))' is not a state name (one word of at most \(maxStateNameLength) letters, digits, '_', '-', '.')"))
        }
        return .success(name)
    }

    private static func isBlank(_ character: Character) -> Bool { character == " " || character == "\t" }

    /// `enable <name>`, `disable <name>`, `list`.
    private static func parseReporter(_ argument: String) -> Result<InputCommand, LineError> {
        let words = argument.split(omittingEmptySubsequences: true, whereSeparator: isBlank)
        let names = ReporterName.allCases.map(\.rawValue).joined(separator: ", ")
        switch (words.first, words.count) {
        case ("list", 1):
            return .success(.reporter(.list))
        case ("enable", 2), ("disable", 2):
            guard let name = ReporterName(rawValue: String(words[1])) else {
                return .failure(LineError("reporter '\(words[1].prefix(40))' is unknown: one of \(names)"))
            }
            return .success(.reporter(words[0] == "enable" ? .enable(name) : .disable(name)))
        case ("enable", _), ("disable", _):
            return .failure(LineError("'reporter \(words[0])' takes one reporter name: one of \(names)"))
        default:
            return .failure(LineError("'reporter' takes 'enable <name>', 'disable <name>' or 'list'"))
        }
    }
}

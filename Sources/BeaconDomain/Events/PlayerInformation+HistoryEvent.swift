extension PlayerInformation {
    /// The history entry of this information, or nil for what the history leaves out: the content
    /// (told at every load) and quality (told as often as every tick).
    package var historyEvent: HistoryEvent? {
        switch self {
        case .error(let error):
            var details = ["source": error.source.rawValue, "id": error.id]
            details["message"] = error.message
            return HistoryEvent(error.source == .player ? .playerError : .applicationError, details)
        case .chapterStart(let chapter):
            var details = ["index": "\(chapter.index)", "offset": Self.seconds(chapter.offset), "length": Self.seconds(chapter.length)]
            details["name"] = chapter.name
            return HistoryEvent(.chapterStarted, details)
        case .chapterEnd:
            return HistoryEvent(.chapterEnded)
        case .chapterSkip:
            return HistoryEvent(.chapterSkipped)
        case .stateStart(let state):
            return HistoryEvent(.playerStateStarted, ["state": state])
        case .stateEnd(let state):
            return HistoryEvent(.playerStateEnded, ["state": state])
        case .privacy(let status):
            return HistoryEvent(.privacySet, ["status": status.rawValue])
        case .notice(let notice):
            return .application(notice)
        case .content, .quality:
            return nil
        }
    }

    /// Whole seconds without a fraction (`600`), others as Swift writes them (`12.5`).
    private static func seconds(_ value: Double) -> String {
        value.rounded() == value && value < 1e15 ? "\(Int64(value))" : "\(value)"
    }
}

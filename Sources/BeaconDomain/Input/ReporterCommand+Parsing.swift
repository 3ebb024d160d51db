extension ReporterCommand {
    /// What follows `reporter`: `list`, `enable NAME` or `disable NAME`.
    public static func parse(_ argument: String) -> Result<ReporterCommand, LineError> {
        let words = argument.split(separator: " ", omittingEmptySubsequences: true)
        let names = ReporterName.allCases.map(\.rawValue).joined(separator: ", ")
        switch (words.first, words.count) {
        case ("list", 1): return .success(.list)
        case ("enable", 2), ("disable", 2):
            guard let name = ReporterName(rawValue: String(words[1])) else {
                return .failure(LineError("unknown reporter '\(words[1].prefix(40))' (one of \(names))"))
            }
            return .success(words[0] == "enable" ? .enable(name) : .disable(name))
        default:
            return .failure(LineError("'reporter' takes 'list', 'enable NAME' or 'disable NAME' (NAME: \(names))"))
        }
    }
}

/// `reporter enable NAME`, `reporter disable NAME`, `reporter list`.
public enum ReporterCommand: Sendable, Equatable {
    case enable(ReporterName)
    case disable(ReporterName)
    case list
}

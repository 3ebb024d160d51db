/// `reporter enable NAME`, `reporter disable NAME`, `reporter list`.
package enum ReporterCommand: Sendable, Equatable {
    case enable(ReporterName)
    case disable(ReporterName)
    case list
}

/// One exported metric: its name, what it measures, and its data points.
package struct OTLPMetric: Sendable, Equatable {
    /// The protocol's `data`: which kind of metric, with its points. Sums and histograms are
    /// cumulative (each point counts from its start time).
    package enum Data: Sendable, Equatable {
        case sum([OTLPNumberDataPoint], isMonotonic: Bool)
        case gauge([OTLPNumberDataPoint])
        case histogram([OTLPHistogramDataPoint])
    }

    package var name: String
    /// What the metric measures; empty when nothing says.
    package var description: String
    /// The unit, as UCUM writes it (`s`, `By`, `1`); empty when unknown.
    package var unit: String
    package var data: Data

    package init(name: String, description: String = "", unit: String = "", data: Data) {
        self.name = name
        self.description = description
        self.unit = unit
        self.data = data
    }
}

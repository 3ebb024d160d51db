extension PrometheusExposition {
    /// The families as OTLP metrics, read at `time` and counting from `start` (epoch milliseconds:
    /// when the daemon started its counters).
    ///
    /// Names stay as Prometheus writes them (`beaconctl_beacons_total` keeps its `_total`), so
    /// that an operator finds one name in both places; the format has no unit, so none is given.
    /// Counters are monotonic cumulative sums, a whole count as an integer; gauges and untyped
    /// samples are gauges; histograms are cumulative histograms, their buckets counted apart.
    /// Labels are attributes. Summaries are left out: the daemon writes none, and OTLP keeps its
    /// summary for compatibility only. A family with no sample is left out.
    package func otlpMetrics(start: Milliseconds, time: Milliseconds) -> [OTLPMetric] {
        let start = UnixNano.of(start)
        let time = UnixNano.of(time)
        return families.compactMap { family -> OTLPMetric? in
            guard !family.samples.isEmpty else { return nil }
            let data: OTLPMetric.Data
            switch family.kind {
            case .counter:
                data = .sum(
                    family.samples.map { sample in
                        let value = Int64(exactly: sample.value).map(OTLPNumberDataPoint.Value.int) ?? .double(sample.value)
                        return OTLPNumberDataPoint(
                            attributes: Self.attributes(sample.labels), startTimeUnixNano: start, timeUnixNano: time, value: value)
                    },
                    isMonotonic: true)
            case .gauge, .untyped:
                data = .gauge(
                    family.samples.map { sample in
                        OTLPNumberDataPoint(attributes: Self.attributes(sample.labels), timeUnixNano: time, value: .double(sample.value))
                    })
            case .histogram:
                data = .histogram(
                    Self.histogramSeries(family).map { $0.point(attributes: Self.attributes($0.labels), start: start, time: time) })
            case .summary:
                return nil
            }
            return OTLPMetric(name: family.name, description: family.help, data: data)
        }
    }

    private static func attributes(_ labels: [PrometheusSample.Label]) -> [OTLPAttribute] {
        labels.map { OTLPAttribute($0.name, .string($0.value)) }
    }

    /// The histograms of `family`, one per set of labels (`le` aside), in the order they first appear.
    private static func histogramSeries(_ family: Family) -> [HistogramSeries] {
        var series: [HistogramSeries] = []
        var indexes: [Set<PrometheusSample.Label>: Int] = [:]
        for sample in family.samples {
            let labels = sample.labels.filter { $0.name != "le" }
            let key = Set(labels)
            let index = indexes[key] ?? series.count
            if index == series.count {
                indexes[key] = index
                series.append(HistogramSeries(labels: labels))
            }
            switch sample.name.dropFirst(family.name.count) {
            case "_bucket":
                // A bucket with no bound, or NaN or -Inf for one, bounds nothing; a bound written
                // twice counts as first written.
                guard let bound = sample.labels.first(where: { $0.name == "le" }).flatMap({ Double($0.value) }),
                    bound > -.infinity, !series[index].buckets.contains(where: { $0.bound == bound })
                else { continue }
                series[index].buckets.append((bound, sample.value))
            case "_sum": series[index].sum = sample.value
            case "_count": series[index].count = sample.value
            default: continue
            }
        }
        return series
    }
}

/// One histogram as the format writes it: cumulative buckets by upper bound (`le`), a sum and a count.
private struct HistogramSeries {
    var labels: [PrometheusSample.Label]
    var buckets: [(bound: Double, cumulative: Double)] = []
    var sum: Double?
    var count: Double?

    /// The histogram with each bucket counting its own values. Its count is the `+Inf` bucket's
    /// (else `_count`, else the last bucket's), so that the buckets add up to it; a cumulative count
    /// that goes down (a torn scrape) gives an empty bucket rather than a negative one.
    func point(attributes: [OTLPAttribute], start: UInt64, time: UInt64) -> OTLPHistogramDataPoint {
        var bounds: [Double] = []
        var counts: [UInt64] = []
        var below: UInt64 = 0
        var total: UInt64?
        for (bound, cumulative) in buckets.sorted(by: { $0.bound < $1.bound }) {
            guard bound < .infinity else {
                total = Self.whole(cumulative)
                break
            }
            let upTo = max(Self.whole(cumulative), below)
            bounds.append(bound)
            counts.append(upTo - below)
            below = upTo
        }
        let count = max(total ?? count.map(Self.whole) ?? below, below)
        return OTLPHistogramDataPoint(
            attributes: attributes, startTimeUnixNano: start, timeUnixNano: time, count: count, sum: sum ?? 0,
            bucketCounts: counts + [count - below], explicitBounds: bounds)
    }

    /// A count the format wrote as a double, as a whole number: 0 for NaN or a negative one.
    private static func whole(_ value: Double) -> UInt64 {
        guard value > 0 else { return 0 }
        return value >= 0x1p64 ? .max : UInt64(value)
    }
}

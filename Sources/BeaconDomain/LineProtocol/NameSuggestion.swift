/// The known name nearest to an unknown one, for "did you mean" in a refusal or a warning: the
/// fewest single-letter edits, letter case ignored, within a third of the name's length (at
/// least 2), so that a typo finds its key and an unrelated word finds none.
package enum NameSuggestion {
    package static func nearest(to name: String, among known: some Sequence<String>) -> String? {
        let wanted = Array(name.lowercased().unicodeScalars)
        let limit = max(2, wanted.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(wanted, Array(candidate.lowercased().unicodeScalars))
            if distance <= limit, distance < best?.distance ?? .max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance, one row at a time.
    private static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        var previous = Array(0...b.count)
        for (i, letter) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, other) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (letter == other ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

import BeaconDomain

/// What the double reads of the parameters it took.
extension MediaCollectionValue {
    package var text: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The value of a JSON number, integer or not.
    package var number: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .string, .boolean: nil
        }
    }

    package var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }
}

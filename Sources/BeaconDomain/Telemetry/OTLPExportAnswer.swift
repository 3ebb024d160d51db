#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a collector said of an export it accepted (a 2xx): an `ExportLogsServiceResponse` or
/// `ExportMetricsServiceResponse`, whose `partialSuccess` counts what it rejected and may say why.
///
/// Read liberally: the count as a string (proto3's JSON mapping of an int64) or a number, a
/// negative count as none. A 2xx is the protocol's success whatever its body says, so a body that
/// is empty (`{}` and no body are the protocol's "all accepted"), not JSON, or of the wrong shape
/// reads as nothing rejected: what cannot be read cannot take the success back.
package struct OTLPExportAnswer: Sendable, Equatable {
    /// The longest message kept, in characters: it goes into log lines.
    package static let maxMessageCharacters = 512

    /// How many log records or data points the collector rejected.
    package var rejected: Int64
    /// Why, or a warning on a full success; nil when the collector said nothing.
    package var message: String?

    package init(rejected: Int64 = 0, message: String? = nil) {
        self.rejected = rejected
        self.message = message
    }

    /// The answer in `body`, to an export of `signal`.
    package init(body: [UInt8], signal: OTLPSignal) {
        guard !body.isEmpty, let wire = try? JSONDecoder().decode(Wire.self, from: Data(body)), let partial = wire.partialSuccess else {
            self.init()
            return
        }
        let count = signal == .logs ? partial.rejectedLogRecords : partial.rejectedDataPoints
        self.init(rejected: max(count?.value ?? 0, 0), message: Self.bounded(partial.errorMessage))
    }

    /// The `message` of the `Status` a collector sends with a failure (4xx, 5xx), bounded; nil
    /// when the body holds none.
    package static func failureMessage(body: [UInt8]) -> String? {
        guard !body.isEmpty, let status = try? JSONDecoder().decode(Status.self, from: Data(body)) else { return nil }
        return bounded(status.message)
    }

    private static func bounded(_ message: String?) -> String? {
        guard let message, !message.isEmpty else { return nil }
        return String(message.prefix(maxMessageCharacters))
    }

    private struct Wire: Decodable {
        var partialSuccess: PartialSuccess?

        private enum CodingKeys: String, CodingKey { case partialSuccess }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            partialSuccess = try? container.decode(PartialSuccess.self, forKey: .partialSuccess)
        }
    }

    /// Each member read on its own: a count of the wrong type leaves the message readable.
    private struct PartialSuccess: Decodable {
        var rejectedLogRecords: Count?
        var rejectedDataPoints: Count?
        var errorMessage: String?

        private enum CodingKeys: String, CodingKey { case rejectedLogRecords, rejectedDataPoints, errorMessage }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            rejectedLogRecords = try? container.decode(Count.self, forKey: .rejectedLogRecords)
            rejectedDataPoints = try? container.decode(Count.self, forKey: .rejectedDataPoints)
            errorMessage = try? container.decode(String.self, forKey: .errorMessage)
        }
    }

    /// An int64 as proto3's JSON mapping allows it: a number or a decimal string.
    private struct Count: Decodable {
        var value: Int64

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Int64.self) {
                value = number
            } else if let number = Int64(try container.decode(String.self)) {
                value = number
            } else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an int64")
            }
        }
    }

    private struct Status: Decodable {
        var message: String?

        private enum CodingKeys: String, CodingKey { case message }

        init(from decoder: any Decoder) throws {
            message = try? decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .message)
        }
    }
}

import Foundation
import Testing
@testable import BeaconDomain
@testable import BeaconHTTP
@testable import BeaconStorage
@testable import BeaconRuntime
@testable import BeaconTerminal
@testable import BeaconTesting

/// The code table: bands, areas and names that operators' tooling relies on.
@Suite(.timeLimit(.minutes(2))) struct EventKindTests {
    @Test(arguments: EventKind.allCases)
    func theCodeReadsTypeBandThenAreaThenNumber(kind: EventKind) {
        #expect(kind.code / 100_000 == kind.severity.band, "\(kind.name): band of \(kind.code)")
        #expect(kind.code / 1000 % 100 == kind.area.rawValue, "\(kind.name): area of \(kind.code)")
        #expect((1...999).contains(kind.code % 1000), "\(kind.name): number within \(kind.code)")
    }

    @Test func namesAreUniqueCamelCaseWords() {
        let names = EventKind.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        for name in names {
            #expect(name.first?.isLowercase == true && name.allSatisfy { $0.isLetter }, "\(name)")
        }
        #expect(EventKind.metadataFailed.name == "metadataFailed")
    }

    @Test func bandsAreErrorsWarningsInfo() {
        #expect(EventSeverity.error.band == 1)
        #expect(EventSeverity.warning.band == 2)
        #expect(EventSeverity.info.band == 3)
    }

    /// The README's table is the operators' reference: it must list every kind as the code has it.
    @Test func theReadmeTableListsEveryKind() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| ") && $0.dropFirst(2).prefix(6).allSatisfy(\.isNumber) }
        let documented = rows.map { row in
            row.split(separator: "|").prefix(4).map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
        }
        let expected = EventKind.allCases.map { ["\($0.code)", $0.name, $0.severity.rawValue, "\($0.area)"] }
        #expect(documented == expected)
    }
}

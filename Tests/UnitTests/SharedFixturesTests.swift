import Foundation
import Testing

/// Tests that read `../shared/fixtures` run where it is and are skipped, saying why, where it is not.
@Suite(.timeLimit(.minutes(2))) struct SharedFixturesTests {
    @Test func foundOnlyBesideThePackage() async throws {
        try await withTemporaryDirectory { directory in
            let root = URL(fileURLWithPath: directory).appendingPathComponent("beaconctl")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            #expect(Fixture.sharedFixtures(besidePackageAt: root) == nil)
            // A file of that name is no fixtures directory.
            try FileManager.default.createDirectory(atPath: directory + "/shared", withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: directory + "/shared/fixtures", contents: Data()))
            #expect(Fixture.sharedFixtures(besidePackageAt: root) == nil)
            try FileManager.default.removeItem(atPath: directory + "/shared/fixtures")
            try FileManager.default.createDirectory(atPath: directory + "/shared/fixtures", withIntermediateDirectories: true)
            #expect(Fixture.sharedFixtures(besidePackageAt: root)?.path == URL(fileURLWithPath: directory + "/shared/fixtures").standardized.path)
        }
    }
}

import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders

/// The bundle's total size cap counts a legacy version's binary `elements` archive (the file
/// the reader decodes for it), not only `contents` files. (Seen failing before the fix: three
/// 4 KB `elements` archives passed a 1 KB cap.)
@Suite struct LegacyBundleSizeTests {
    /// A bundle of legacy versions, each a folder with an `elements` file of `size` bytes.
    static func legacyBundle(versions: [String], size: Int) throws -> URL {
        let bundle = try ModelTestSupport.temporaryDirectory().appendingPathComponent("Legacy.xcdatamodeld")
        for version in versions {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(repeating: 0x41, count: size).write(to: folder.appendingPathComponent("elements"))
        }
        return bundle
    }

    @Test("CP111: legacy `elements` archives over the total size limit")
    func legacyArchivesCount() throws {
        let bundle = try Self.legacyBundle(versions: ["A", "A 2", "A 3"], size: 4_096)
        defer { try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent()) }
        let refused = ModelBundleReader(maxTotalBytes: 1_024).read(bundleAt: bundle, displayPath: "L")
        #expect(refused.bundle == nil)
        #expect(refused.diagnostics.map(\.code) == [.unreadableModelBundle])
        let accepted = ModelBundleReader(maxTotalBytes: 3 * 4_096).read(bundleAt: bundle, displayPath: "L")
        #expect(accepted.bundle?.versions.map(\.isLegacyFormat) == [true, true, true])
    }
}

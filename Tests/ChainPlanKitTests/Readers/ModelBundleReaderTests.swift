import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput
#if canImport(Glibc)
import Glibc
#endif

@Suite("ModelBundleReader")
struct ModelBundleReaderTests {
    /// Reads `Tests/Fixtures/Model/<name>` with display path `<name>`.
    static func readFixture(_ name: String) -> ModelBundleReadResult {
        ModelBundleReader().read(bundleAt: ModelTestSupport.fixtures.appendingPathComponent(name), displayPath: name)
    }

    static func summary(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.code.rawValue) \($0.severity.rawValue) \($0.location?.description ?? "-")" }
    }

    /// A minimal valid `contents` with one entity.
    static func contents(_ entity: String) -> String {
        "<?xml version=\"1.0\"?>\n<model>\n<entity name=\"\(entity)\"/>\n</model>\n"
    }

    static func currentVersionPlist(_ name: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \t<key>_XCCurrentVersionName</key>
        \t<string>\(name)</string>
        </dict>
        </plist>

        """
    }

    /// Creates a bundle in a temporary directory: version name → contents text.
    static func makeBundle(_ versions: [String: String], currentVersion: String? = nil,
                           name: String = "Temp.xcdatamodeld") throws -> URL {
        let bundle = try ModelTestSupport.temporaryDirectory().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for (version, text) in versions {
            let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        if let currentVersion {
            try Data(currentVersionPlist(currentVersion).utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        }
        return bundle
    }

    /// Removes the temporary directory holding `bundle`.
    static func remove(_ bundle: URL) {
        try? FileManager.default.removeItem(at: bundle.deletingLastPathComponent())
    }

    @Test("a normal bundle: versions in natural order, current version, models")
    func normal() throws {
        let result = Self.readFixture("AllFields.xcdatamodeld")
        #expect(result.diagnostics == [])
        let bundle = try #require(result.bundle)
        #expect(bundle.name == "AllFields")
        #expect(bundle.path == "AllFields.xcdatamodeld")
        #expect(bundle.versionNames == ["AllFields", "AllFields 2"])
        #expect(bundle.currentVersion == "AllFields 2")
        #expect(bundle.versions.map(\.path) == [
            "AllFields.xcdatamodeld/AllFields.xcdatamodel/contents",
            "AllFields.xcdatamodeld/AllFields 2.xcdatamodel/contents",
        ])
        #expect(bundle.version(named: "AllFields")?.model?.entities.count == 4)
        #expect(bundle.version(named: "AllFields 2")?.model?.entities.map(\.name) == ["Tag"])
    }

    @Test("CP114: .xccurrentversion names a missing version")
    func missingCurrent() throws {
        let result = Self.readFixture("MissingCurrent.xcdatamodeld")
        #expect(Self.summary(result.diagnostics) == ["CP114 error MissingCurrent.xcdatamodeld/.xccurrentversion:6"])
        #expect(result.diagnostics.first?.message
                == "'.xccurrentversion' names version 'Shop 3', which is not in the bundle (did you mean 'Shop 2'?)")
        #expect(result.diagnostics.first?.versions == ["Shop 3"])
        #expect(result.bundle?.currentVersion == nil)
        #expect(result.bundle?.versionNames == ["Shop", "Shop 2"])
    }

    @Test("CP113: empty dictionary with several versions")
    func emptyCurrent() throws {
        let result = Self.readFixture("EmptyCurrent.xcdatamodeld")
        #expect(Self.summary(result.diagnostics) == ["CP113 warning EmptyCurrent.xcdatamodeld/.xccurrentversion"])
        #expect(result.bundle?.currentVersion == nil)
    }

    @Test("CP113: no .xccurrentversion with several versions")
    func noCurrentFile() throws {
        let result = Self.readFixture("NoCurrentFile.xcdatamodeld")
        #expect(Self.summary(result.diagnostics) == ["CP113 warning NoCurrentFile.xcdatamodeld"])
        #expect(result.diagnostics.first?.message
                == "there is no '.xccurrentversion'; the bundle has 3 versions and no current one")
        #expect(result.bundle?.currentVersion == nil)
        #expect(result.bundle?.versionNames == ["Shop", "Shop 2", "Shop 10"])
    }

    @Test("a single version without .xccurrentversion is current")
    func single() throws {
        let result = Self.readFixture("Single.xcdatamodeld")
        #expect(result.diagnostics == [])
        #expect(result.bundle?.currentVersion == "Only One")
        #expect(result.bundle?.versionNames == ["Only One"])
    }

    @Test("CP112: a legacy version; the others still load")
    func legacy() throws {
        let result = Self.readFixture("Legacy.xcdatamodeld")
        #expect(Self.summary(result.diagnostics) == ["CP112 warning Legacy.xcdatamodeld/Notes.xcdatamodel"])
        #expect(result.diagnostics.first?.versions == ["Notes"])
        #expect(result.diagnostics.first?.message.contains("'Notes'") == true)
        let bundle = try #require(result.bundle)
        let legacy = try #require(bundle.version(named: "Notes"))
        #expect(legacy.isLegacyFormat)
        #expect(legacy.model == nil)
        #expect(legacy.path == "Legacy.xcdatamodeld/Notes.xcdatamodel")
        #expect(bundle.version(named: "Notes 2")?.model?.entities.map(\.name) == ["Note"])
        #expect(bundle.currentVersion == "Notes 2")
        #expect(!result.diagnostics.hasUnusableInput)
    }

    @Test("CP118: broken versions are reported, the rest loads")
    func broken() throws {
        let result = Self.readFixture("Broken.xcdatamodeld")
        #expect(Self.summary(result.diagnostics) == [
            "CP118 error Broken.xcdatamodeld/App 2.xcdatamodel/contents:4:9",
            "CP118 error Broken.xcdatamodeld/App 3.xcdatamodel",
        ])
        #expect(result.diagnostics.map(\.versions) == [["App 2"], ["App 3"]])
        let bundle = try #require(result.bundle)
        #expect(bundle.versionNames == ["App", "App 2", "App 3", "App 4"])
        #expect(bundle.versions.map { $0.model != nil } == [true, false, false, true])
        // `.xccurrentversion` without the extension is accepted.
        #expect(bundle.currentVersion == "App 4")
    }

    @Test("CP111: missing, not a directory, no versions")
    func unusable() throws {
        let missing = ModelBundleReader().read(bundleAt: ModelTestSupport.fixtures.appendingPathComponent("Nope.xcdatamodeld"),
                                               displayPath: "Nope.xcdatamodeld")
        #expect(missing.bundle == nil)
        #expect(Self.summary(missing.diagnostics) == ["CP111 error Nope.xcdatamodeld"])
        #expect(missing.diagnostics.first?.message == "the model bundle 'Nope.xcdatamodeld' does not exist")

        let file = ModelBundleReader().read(
            bundleAt: ModelTestSupport.fixtures.appendingPathComponent("Semantic/parent-cycle.xml"), displayPath: "x")
        #expect(file.bundle == nil)
        #expect(file.diagnostics.first?.message == "the model bundle 'x' is not a directory")

        let empty = try ModelTestSupport.temporaryDirectory().appendingPathComponent("Empty.xcdatamodeld")
        defer { try? FileManager.default.removeItem(at: empty.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: empty.appendingPathComponent("README"))
        try FileManager.default.createDirectory(at: empty.appendingPathComponent(".hidden.xcdatamodel"), withIntermediateDirectories: true)
        let none = ModelBundleReader().read(bundleAt: empty, displayPath: "Empty.xcdatamodeld")
        #expect(none.bundle == nil)
        #expect(none.diagnostics.map(\.code) == [.unreadableModelBundle])
        #expect(none.diagnostics.first?.message == "the model bundle 'Empty.xcdatamodeld' holds no '.xcdatamodel' versions")
        #expect(none.diagnostics.hasUnusableInput)
    }

    @Test("CP111: more versions than the limit")
    func versionLimit() throws {
        let bundle = try Self.makeBundle(["A": Self.contents("A"), "A 2": Self.contents("A"), "A 3": Self.contents("A")])
        defer { Self.remove(bundle) }
        let result = ModelBundleReader(maxVersions: 2).read(bundleAt: bundle, displayPath: "Temp.xcdatamodeld")
        #expect(result.bundle == nil)
        #expect(result.diagnostics.first?.message == "the model bundle 'Temp.xcdatamodeld' has 3 versions, over the limit of 2")
        #expect(ModelBundleReader(maxVersions: 3).read(bundleAt: bundle, displayPath: "t").bundle?.versions.count == 3)
    }

    @Test("CP111: model files over the bundle's total size limit")
    func totalSizeLimit() throws {
        let text = Self.contents("A")
        let bundle = try Self.makeBundle(["A": text, "A 2": text, "A 3": text])
        defer { Self.remove(bundle) }
        let size = text.utf8.count
        let refused = ModelBundleReader(maxTotalBytes: 3 * size - 1).read(bundleAt: bundle, displayPath: "T")
        #expect(refused.bundle == nil)
        #expect(Self.summary(refused.diagnostics) == ["CP111 error T"])
        #expect(refused.diagnostics.first?.message
                == "the model bundle 'T' holds more than \(3 * size - 1) bytes of model files (the limit)")
        let accepted = ModelBundleReader(maxTotalBytes: 3 * size).read(bundleAt: bundle, displayPath: "T")
        #expect(accepted.bundle?.versions.count == 3)
    }

    @Test("contents over the size limit")
    func sizeLimit() throws {
        let big = Self.contents(String(repeating: "B", count: 200))
        let bundle = try Self.makeBundle(["Big": big, "Small": Self.contents("S")], currentVersion: "Small.xcdatamodel")
        defer { Self.remove(bundle) }
        let result = ModelBundleReader(maxContentsBytes: 100).read(bundleAt: bundle, displayPath: "T")
        #expect(Self.summary(result.diagnostics) == ["CP118 error T/Big.xcdatamodel/contents"])
        #expect(result.diagnostics.first?.message == "'contents' is \(big.utf8.count) bytes, over the limit of 100 bytes")
        #expect(result.bundle?.version(named: "Small")?.model != nil)
    }

    @Test("symbolic links: inside the bundle followed, outside refused, loops reported")
    func symbolicLinks() throws {
        let bundle = try Self.makeBundle(["Real": Self.contents("R")], currentVersion: "Real.xcdatamodel")
        defer { Self.remove(bundle) }
        let manager = FileManager.default
        // A version folder linking to another version folder of the same bundle.
        try manager.createSymbolicLink(atPath: bundle.appendingPathComponent("Alias.xcdatamodel").path,
                                       withDestinationPath: "Real.xcdatamodel")
        // A version folder linking outside the bundle.
        let outsideParent = try ModelTestSupport.temporaryDirectory()
        defer { try? manager.removeItem(at: outsideParent) }
        let outside = outsideParent.appendingPathComponent("Out.xcdatamodel")
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data(Self.contents("O").utf8).write(to: outside.appendingPathComponent("contents"))
        try manager.createSymbolicLink(atPath: bundle.appendingPathComponent("Outside.xcdatamodel").path,
                                       withDestinationPath: outside.path)
        // A symlink loop, and a contents file linking outside.
        try manager.createSymbolicLink(atPath: bundle.appendingPathComponent("Loop.xcdatamodel").path,
                                       withDestinationPath: "Loop.xcdatamodel")
        let linked = bundle.appendingPathComponent("Linked.xcdatamodel")
        try manager.createDirectory(at: linked, withIntermediateDirectories: true)
        try manager.createSymbolicLink(atPath: linked.appendingPathComponent("contents").path,
                                       withDestinationPath: outside.appendingPathComponent("contents").path)

        let result = ModelBundleReader().read(bundleAt: bundle, displayPath: "T")
        #expect(Self.summary(result.diagnostics) == [
            "CP118 error T/Linked.xcdatamodel/contents",
            "CP118 error T/Loop.xcdatamodel",
            "CP118 error T/Outside.xcdatamodel",
        ])
        #expect(result.diagnostics[1].message.contains("symbolic link loop"))
        #expect(result.diagnostics[2].message.contains("outside the bundle"))
        let read = try #require(result.bundle)
        #expect(read.versionNames == ["Alias", "Linked", "Loop", "Outside", "Real"])
        #expect(read.version(named: "Alias")?.model?.entities.map(\.name) == ["R"])
        #expect(read.version(named: "Outside")?.model == nil)
        #expect(read.version(named: "Linked")?.model == nil)
    }

    @Test("a FIFO named contents does not block")
    func fifo() throws {
        let bundle = try Self.makeBundle(["A": Self.contents("A")])
        defer { Self.remove(bundle) }
        let folder = bundle.appendingPathComponent("B.xcdatamodel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(mkfifo(folder.appendingPathComponent("contents").path, 0o600) == 0)
        let result = ModelBundleReader().read(bundleAt: bundle, displayPath: "T")
        #expect(Self.summary(result.diagnostics) == ["CP118 error T/B.xcdatamodel/contents", "CP113 warning T"].sorted())
        #expect(result.diagnostics.contains { $0.message == "'contents' is not a regular file" })
    }

    @Test(".xccurrentversion variants", arguments: [
        // (file text, expected current, expected finding "code line")
        (currentVersionPlist("B.xcdatamodel"), "B", nil),
        (currentVersionPlist("B"), "B", nil),
        (currentVersionPlist(""), nil, "CP113 -"),
        ("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>Other</key><string>A.xcdatamodel</string>\n</dict>\n</plist>\n", nil, "CP113 -"),
        ("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>_XCCurrentVersionName</key>\n<array/>\n</dict>\n</plist>\n", nil, "CP113 5"),
        ("<plist version=\"1.0\"><dict><key>_XCCurrentVersionName</key><string>A.xcdatamodel</string>", nil, "CP113 1"),
        ("<?xml version=\"1.0\"?>\n<!DOCTYPE plist [\n<!ENTITY x \"A.xcdatamodel\">\n]>\n<plist><dict><key>_XCCurrentVersionName</key><string>&x;</string></dict></plist>", nil, "CP113 2"),
        ("bplist00\u{0}\u{1}", nil, "CP113 -"),
        ("<?xml version=\"1.0\"?>\n<root/>\n", nil, "CP113 2"),
    ] as [(String, String?, String?)])
    func currentVersionFile(_ text: String, _ current: String?, _ finding: String?) throws {
        let bundle = try Self.makeBundle(["A": Self.contents("A"), "B": Self.contents("B")])
        defer { Self.remove(bundle) }
        try Data(text.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let result = ModelBundleReader().read(bundleAt: bundle, displayPath: "T")
        #expect(result.bundle?.currentVersion == current)
        let findings = result.diagnostics.map { "\($0.code.rawValue) \($0.location?.line.map(String.init) ?? "-")" }
        #expect(findings == (finding.map { [$0] } ?? []))
        #expect(result.diagnostics.allSatisfy { $0.location?.file == "T/.xccurrentversion" })
    }

    @Test("a deeply nested .xccurrentversion does not crash")
    func deepPlist() throws {
        let bundle = try Self.makeBundle(["A": Self.contents("A"), "B": Self.contents("B")])
        defer { Self.remove(bundle) }
        var text = "<plist><dict><key>k</key>"
        for _ in 0..<100_000 { text += "<array>" }
        try Data(text.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        let result = ModelBundleReader().read(bundleAt: bundle, displayPath: "T")
        #expect(result.diagnostics.map(\.code) == [.noCurrentVersion])
        #expect(result.bundle?.currentVersion == nil)
    }
}

extension CorpusTests {
    /// The tests of `ModelBundleReaderTests` that read `../shared`.
    @Suite struct ModelBundleReaderCorpusTests {
        @Test("reading in parallel gives the same result as reading in order")
        func concurrentMatchesSerial() throws {
            let relative = "wireapp__wire-ios-data-model/Resources/zmessaging.xcdatamodeld"
            let url = ModelTestSupport.corpus.appendingPathComponent(relative)
            let serial = ModelBundleReader(concurrent: false).read(bundleAt: url, displayPath: relative)
            let parallel = ModelBundleReader(concurrent: true).read(bundleAt: url, displayPath: relative)
            #expect(serial == parallel)
            #expect(serial.bundle?.versions.count == 90)
        }
    }
}

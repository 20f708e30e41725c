import Foundation
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanSwiftSource

/// Hostile Swift input is a finding (CP601 or CP602) with a location, never a crash or a hang.
struct SwiftSourceHostileTests {
    @Test func unterminatedSourceIsAFindingWithItsPlace() throws {
        let project = SwiftDataTestSupport.read([("Models.swift", "import SwiftData\n@Model final class Trip {\n    var name: String\n")])
        let finding = try #require(project.diagnostics.first)
        #expect(finding.code == .unreadableSwiftSource)
        #expect(finding.location?.file == "Models.swift")
        #expect(finding.location?.line != nil)
        #expect(finding.message.contains("expected"), "\(finding.message)")
        #expect(project.versions.isEmpty)
    }

    static func deepSource(_ label: String) -> String {
        switch label {
        case "nested brackets": String(repeating: "[", count: 50_000)
        case "nested types": String(repeating: "enum A { ", count: 20_000) + String(repeating: "}", count: 20_000)
        case "nested types within the bracket limit": String(repeating: "enum A { ", count: 200) + String(repeating: "}", count: 200)
        default: "@Model final class T { var x = " + String(repeating: "(", count: 30_000) + "1" + String(repeating: ")", count: 30_000) + " }"
        }
    }

    @Test(arguments: ["nested brackets", "nested types", "nested types within the bracket limit", "nested parentheses in a property"])
    func deeplyNestedSourceIsAFinding(_ label: String) {
        let project = SwiftDataTestSupport.read([("Deep.swift", Self.deepSource(label))])
        #expect(project.diagnostics.contains { $0.code == .unreadableSwiftSource && $0.location?.file == "Deep.swift" }, "\(label)")
    }

    @Test func hugeFileIsRefusedBeforeParsing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swift-huge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = "let x = 1\n"
        let text = String(repeating: line, count: SwiftSourceLimits.maxFileBytes / line.utf8.count + 10)
        try Data(text.utf8).write(to: folder.appendingPathComponent("Huge.swift"))
        let project = SwiftDataReader.read(at: folder, displayPath: "Sources")
        let finding = try #require(project.diagnostics.first)
        #expect(finding.code == .unreadableSwiftSource)
        #expect(finding.message.contains("over the limit"), "\(finding.message)")
        #expect(project.versions.isEmpty)
    }

    @Test func missingPathAndEmptyFolderAreFindings() throws {
        let missing = SwiftDataReader.read(at: URL(fileURLWithPath: "/nonexistent/Models"), displayPath: "/nonexistent/Models")
        #expect(missing.diagnostics.map(\.code) == [.unreadableSwiftSource])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swift-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = SwiftDataReader.read(at: folder, displayPath: "Empty")
        #expect(empty.diagnostics.map(\.code) == [.unreadableSwiftSource])
        #expect(empty.diagnostics.first?.message.contains("no .swift files") == true)
    }

    @Test func invalidUTF8IsAFinding() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-swift-utf8-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0x6C, 0x65, 0x74, 0x20, 0xFF, 0xFE]).write(to: folder.appendingPathComponent("Bad.swift"))
        let project = SwiftDataReader.read(at: folder, displayPath: "Bad")
        #expect(project.diagnostics.first?.code == .unreadableSwiftSource)
        #expect(project.diagnostics.first?.message.contains("UTF-8") == true)
    }

    /// A relationship cycle and a self-reference close without looping.
    @Test func relationshipCyclesTerminate() throws {
        let source = SwiftDataTestSupport.schema("""
            @Model final class Thing { var next: Thing?; var other: Other? }
            @Model final class Other { var back: Thing?; var again: Other? }
            """)
        let version = try #require(SwiftDataTestSupport.version(source))
        #expect(version.model?.entities.map(\.name) == ["Thing", "Other"])
        #expect(version.unverified.contains { $0.contains("self-relationship") })
    }
}

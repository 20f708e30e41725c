import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// `chainplan lock` and the CP401/CP402/CP403 checks of `validate`.
struct LockTests {
    /// A private copy of the grocery-dude example, locked; removed by the caller.
    func lockedExample() async throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-lock-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLITests.root.appendingPathComponent("Chains/grocery-dude"), to: directory)
        #expect(await ChainPlan.run(arguments: ["lock", directory.appendingPathComponent("chain.json").path]) == 0)
        return directory
    }

    func contents(_ directory: URL, _ version: String) -> URL {
        directory.appendingPathComponent("Model.xcdatamodeld/\(version).xcdatamodel/contents")
    }

    func edit(_ directory: URL, _ version: String, _ change: (String) -> String) throws {
        let url = contents(directory, version)
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    func findings(_ directory: URL) -> [Diagnostic] {
        ChainPlanner().plan(inputAt: directory.appendingPathComponent("chain.json")).diagnostics.filter { $0.code.rawValue.hasPrefix("CP40") }
    }

    @Test func theLockOfAnExampleIsGolden() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lock = try Data(contentsOf: directory.appendingPathComponent("chain.lock"))
        #expect(try Golden.check(lock, against: "Golden/lock/grocery-dude.chain.lock"))
        // Every version but the target, in history order; and a locked, unchanged bundle is clean.
        let text = String(decoding: lock, as: UTF8.self)
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("version ") }.map { $0.split(separator: "\"")[1] } == ["Model", "Model 2", "Model 3"])
        #expect(findings(directory).isEmpty)
        let (read, problems) = ChainLock.read(text, file: "chain.lock")
        #expect(problems.isEmpty)
        #expect(read?.text == text)
    }

    @Test(arguments: [
        ("a type", "attributeType=\"String\"", "attributeType=\"Integer 64\"", "(type)"),
        ("an optionality", "optional=\"YES\"", "optional=\"NO\"", "(optional)"),
        ("a renaming identifier", "<attribute name=\"name\"", "<attribute name=\"name\" elementID=\"title\"", "(renaming identifier)"),
    ])
    func editingAShippedVersionIsCaught(_ what: String, _ before: String, _ after: String, _ field: String) async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOf: contents(directory, "Model 2"), encoding: .utf8)
        let range = try #require(original.range(of: before), "\(what): fixture lacks \(before)")
        try Data(original.replacingCharacters(in: range, with: after).utf8).write(to: contents(directory, "Model 2"))
        let found = findings(directory)
        #expect(found.map(\.code) == [.lockedVersionChanged], "\(what)")
        #expect(found.first?.message.contains("'Item.") == true, "\(found.first?.message ?? "")")
        #expect(found.first?.message.contains("changed \(field)") == true, "\(found.first?.message ?? "")")
        #expect(found.first?.versions == ["Model 2"])
        #expect(found.first?.location?.file.hasSuffix("Model 2.xcdatamodel/contents") == true)
        #expect(found.first?.location?.line != nil)
        #expect(await ChainPlan.run(arguments: ["validate", directory.appendingPathComponent("chain.json").path, "-o", "/dev/null"]) == 1)
    }

    @Test func formattingAndToolChurnAreNotEdits() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try edit(directory, "Model 2") { text in
            var lines = text.components(separatedBy: "\n")
            // Xcode's tool-version attributes, indentation, and the order of XML attributes.
            lines = lines.map { line in
                var line = line.replacingOccurrences(of: #"lastSavedToolsVersion="[^"]*""#, with: #"lastSavedToolsVersion="99999""#, options: .regularExpression)
                line = line.replacingOccurrences(of: #"systemVersion="[^"]*""#, with: #"systemVersion="99Z99""#, options: .regularExpression)
                if line.contains("<attribute "), let match = line.range(of: #"name="[^"]*" "#, options: .regularExpression) {
                    let name = String(line[match])
                    line.removeSubrange(match)
                    line = line.replacingOccurrences(of: "/>", with: " " + name.trimmingCharacters(in: .whitespaces) + "/>")
                }
                return "\t\t" + line.trimmingCharacters(in: .whitespaces)
            }
            return lines.joined(separator: "\n\n")
        }
        let changed = try String(contentsOf: contents(directory, "Model 2"), encoding: .utf8)
        #expect(changed.contains("99999") && changed.contains("\t\t<attribute "))
        #expect(findings(directory).isEmpty)
    }

    @Test func aDeletedVersionIsReported() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("Model.xcdatamodeld/Model 2.xcdatamodel"))
        let lockedVersionMissing = findings(directory).filter { $0.code == .lockedVersionMissing }
        #expect(lockedVersionMissing.map(\.versions) == [["Model 2"]])
        #expect(lockedVersionMissing.first?.location?.file.hasSuffix("chain.lock") == true)
        #expect(lockedVersionMissing.first?.location?.line != nil)
    }

    @Test(arguments: [
        ("version \"Model\" nothex\n", 1),
        ("# comment\n  entity \"Item\" 0123456789abcdef\n", 2),
        ("version \"Model\" 0123456789abcdef\nbogus line\n", 2),
        ("version \"unterminated 0123456789abcdef\n", 1),
    ])
    func aMalformedLockIsUnusable(_ text: String, _ line: Int) async throws {
        let (lock, problems) = ChainLock.read(text, file: "chain.lock")
        #expect(lock == nil)
        #expect(problems.map(\.code) == [.unreadableLock])
        #expect(problems.first?.location?.line == line)
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(text.utf8).write(to: directory.appendingPathComponent("chain.lock"))
        #expect(await ChainPlan.run(arguments: ["validate", directory.appendingPathComponent("chain.json").path, "-o", "/dev/null"]) == 2)
    }

    @Test func namesOfAnyKindSurviveTheLockText() {
        let name = "We\"ird \\ name\nwith\ttabs \u{7}"
        let print = ChainLock.VersionPrint(digest: "0123456789abcdef", entities: [name: "fedcba9876543210"],
                                           properties: [name: [name: "00112233445566ff"]])
        let lock = ChainLock(versions: [(name, print, 0)])
        let (read, problems) = ChainLock.read(lock.text, file: "chain.lock")
        #expect(problems.isEmpty)
        #expect(read?.versions.first?.name == name)
        #expect(read?.versions.first?.print == print)
    }

    /// A bidirectional control in a name is written as a visible escape, like in every other
    /// human-facing format, and reads back as the name itself.
    @Test func bidiControlsInNamesAreVisibleInTheLock() {
        let name = "price\u{202E}txt.exe"
        let print = ChainLock.VersionPrint(digest: "0123456789abcdef", entities: [name: "fedcba9876543210"],
                                           properties: [name: [name: "00112233445566ff"]],
                                           entityFields: [name: "0123abcd"], propertyFields: [name: [name: "4567ef01"]])
        let lock = ChainLock(versions: [("V\u{2067}1", print, 0)])
        #expect(!lock.text.unicodeScalars.contains { MarkupText.isBidiControl($0) })
        #expect(lock.text.contains("entity \"price\\u{202E}txt.exe\" fedcba9876543210 0123abcd"))
        #expect(lock.text.contains("version \"V\\u{2067}1\""))
        let (read, problems) = ChainLock.read(lock.text, file: "chain.lock")
        #expect(problems.isEmpty)
        #expect(read?.versions.first?.name == "V\u{2067}1")
        #expect(read?.versions.first?.print == print)
        #expect(read?.text == lock.text)
    }

    /// Locks written before per-field digests still read, and an edit is still caught (without fields).
    @Test func aLockWithoutFieldDigestsStillWorks() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chain.lock")
        // Drop the last word (the field digests) of every entity and property line.
        let stripped = try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard line.hasPrefix("  entity ") || line.hasPrefix("  property "), let space = line.lastIndex(of: " ") else { return String(line) }
            return String(line[..<space])
        }.joined(separator: "\n")
        #expect(stripped != (try String(contentsOf: url, encoding: .utf8)))
        try Data(stripped.utf8).write(to: url)
        #expect(findings(directory).isEmpty)
        try edit(directory, "Model 2") { $0.replacingOccurrences(of: "optional=\"YES\"", with: "optional=\"NO\"") }
        let found = findings(directory)
        #expect(found.map(\.code) == [.lockedVersionChanged])
        #expect(found.first?.message.contains("changed") == true && found.first?.message.contains("(optional)") == false)
    }

    @Test func chosenVersionsAndUnknownOnes() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--versions", "Model, Model 3"]) == 0)
        let text = try String(contentsOf: directory.appendingPathComponent("chain.lock"), encoding: .utf8)
        #expect(text.contains("version \"Model 3\"") && !text.contains("version \"Model 2\""))
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--versions", "Model 9"]) == 2)
    }
}

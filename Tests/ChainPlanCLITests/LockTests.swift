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
        ("a version hash modifier", "<attribute name=\"name\"", "<attribute name=\"name\" versionHashModifier=\"2\"", "(versionHashModifier)"),
    ])
    func editingAShippedVersionIsCaught(_ what: String, _ before: String, _ after: String, _ field: String) async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOf: contents(directory, "Model 2"), encoding: .utf8)
        let range = try #require(original.range(of: before), "\(what): fixture lacks \(before)")
        try Data(original.replacingCharacters(in: range, with: after).utf8).write(to: contents(directory, "Model 2"))
        let found = findings(directory)
        #expect(found.map(\.code) == [.shippedVersionChanged], "\(what)")
        #expect(found.first?.message.contains("its Core Data version hashes changed") == true, "\(found.first?.message ?? "")")
        #expect(found.first?.message.contains("'Item': 'Item.") == true, "\(found.first?.message ?? "")")
        #expect(found.first?.message.contains(" \(field)") == true, "\(found.first?.message ?? "")")
        #expect(found.first?.versions == ["Model 2"])
        #expect(found.first?.location?.file.hasSuffix("Model 2.xcdatamodel/contents") == true)
        #expect(found.first?.location?.line != nil)
        #expect(await ChainPlan.run(arguments: ["validate", directory.appendingPathComponent("chain.json").path, "-o", "/dev/null"]) == 1)
    }

    /// The README's CP401 example is the message chainplan fingerprints for it ('Item.brand' becomes Integer 64).
    @Test func theReadmeExampleIsTheMessage() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try edit(directory, "Model 2") {
            $0.replacingOccurrences(of: "name=\"brand\" optional=\"YES\" attributeType=\"String\"", with: "name=\"brand\" optional=\"YES\" attributeType=\"Integer 64\"")
        }
        let page = try String(contentsOf: CLITests.root.appendingPathComponent("Docs/usage.md"), encoding: .utf8)
        let example = try #require(page.split(separator: "\n").first { $0.hasSuffix("[CP401]") })
        let found = try #require(findings(directory).first)
        #expect(example.hasSuffix(": error: \(found.message) [CP401]"))
        #expect(found.location?.line == 4)
    }

    /// Edits that move no Core Data hash are not changes to a shipped version: stores still open.
    @Test(arguments: [
        ("a renaming identifier", "<attribute name=\"name\"", "<attribute name=\"name\" elementID=\"title\""),
        ("a default value", "<attribute name=\"name\"", "<attribute name=\"name\" defaultValueString=\"x\""),
        ("an index", "<attribute name=\"name\"", "<attribute name=\"name\" indexed=\"YES\""),
    ])
    func editsThatMoveNoHashAreNotChanges(_ what: String, _ before: String, _ after: String) async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = try String(contentsOf: contents(directory, "Model 2"), encoding: .utf8)
        let range = try #require(original.range(of: before), "\(what): fixture lacks \(before)")
        try Data(original.replacingCharacters(in: range, with: after).utf8).write(to: contents(directory, "Model 2"))
        #expect(findings(directory).isEmpty, "\(what)")
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
        let lockedVersionMissing = findings(directory).filter { $0.code == .shippedVersionMissing }
        #expect(lockedVersionMissing.map(\.versions) == [["Model 2"]])
        #expect(lockedVersionMissing.first?.location?.file.hasSuffix("chain.lock") == true)
        #expect(lockedVersionMissing.first?.location?.line != nil)
    }

    @Test(arguments: [
        ("version \"Model\" nothex\n", 1),
        ("# comment\n  entity \"Item\" 0123456789abcdef\n", 2),
        ("version \"Model\" X4mwmj23swlQ31WmOy6F2TAQgdc/tucC5new7PMaO20=\nbogus line\n", 2),
        ("version \"Model\" X4mwmj23swlQ31WmOy6F2TAQgdc/tucC5new7PMaO20=\n  entity \"Item\" tooshort 30f9a2655371b85d\n", 2),
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

    static let checksum = "X4mwmj23swlQ31WmOy6F2TAQgdc/tucC5new7PMaO20="
    static let hash = "B/bQpylPIzpcFel+Sn1tY1V37BF8kdvpjCmB3DyYllc="

    /// A fingerprint with one entity and one attribute named `name`, with made-up digests.
    static func fingerprint(_ name: String) -> ChainLock.VersionFingerprint {
        let attribute = PropertyHashInputs(kind: .attribute, values: Array(repeating: "0a1b", count: HashInputTable.attribute.count))
        let inputs = EntityHashInputs(name: name, parent: nil, values: Array(repeating: "c2d3", count: HashInputTable.entity.count),
                                      properties: [name: attribute])
        return ChainLock.VersionFingerprint(checksum: checksum, entities: [name: hash], inputs: [name: inputs], unverified: [name])
    }

    @Test func namesOfAnyKindSurviveTheLockText() {
        let name = "We\"ird \\ name\nwith\ttabs \u{7}"
        let lock = ChainLock(versions: [(name, Self.fingerprint(name), 0)])
        let (read, problems) = ChainLock.read(lock.text, file: "chain.lock")
        #expect(problems.isEmpty)
        #expect(read?.versions.first?.name == name)
        #expect(read?.versions.first?.fingerprint == Self.fingerprint(name))
        #expect(read?.text == lock.text)
    }

    /// A bidirectional control in a name is written as a visible escape, like in every other
    /// human-facing format, and reads back as the name itself.
    @Test func bidiControlsInNamesAreVisibleInTheLock() {
        let name = "price\u{202E}txt.exe"
        let lock = ChainLock(versions: [("V\u{2067}1", Self.fingerprint(name), 0)])
        #expect(!lock.text.unicodeScalars.contains { MarkupText.isBidiControl($0) })
        #expect(lock.text.contains("  entity \"price\\u{202E}txt.exe\" \(Self.hash) c2d3c2d3c2d3c2d3 unverified\n"))
        #expect(lock.text.contains("version \"V\\u{2067}1\" \(Self.checksum) unverified\n"))
        let (read, problems) = ChainLock.read(lock.text, file: "chain.lock")
        #expect(problems.isEmpty)
        #expect(read?.versions.first?.name == "V\u{2067}1")
        #expect(read?.versions.first?.fingerprint == Self.fingerprint(name))
        #expect(read?.text == lock.text)
    }

    /// A version whose hash rests on an input the reference leaves open (an entity's
    /// versionHashModifier) is locked as unverified, and `lock` says so.
    @Test func unverifiedHashesAreMarked() async throws {
        let plain = ObjectModel(entities: [Entity(name: "Note", attributes: [Attribute(name: "title", type: .string)])])
        var modified = plain
        modified.entities[0].versionHashModifier = "2"
        let bundle = ModelBundle(name: "M.xcdatamodeld", path: "M.xcdatamodeld", versions: [
            ModelVersion(name: "V1", path: "V1.xcdatamodel", model: plain), ModelVersion(name: "V2", path: "V2.xcdatamodel", model: modified),
        ], currentVersion: "V2")
        let lock = ChainLock(bundle: bundle, versions: ["V1", "V2"])
        let lines = lock.text.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.filter { $0.hasSuffix(" unverified") }.count == 2, "\(lines)")
        #expect(lines.first { $0.hasPrefix("version \"V1\"") }?.hasSuffix(" unverified") == false)
        #expect(lines.first { $0.hasPrefix("version \"V2\"") }?.hasSuffix(" unverified") == true)
        #expect(lock.versions.map(\.fingerprint.isVerified) == [true, false])
        // The recorded checksum is Core Data's: the one `chainplan hash` fingerprints.
        #expect(lock.versions.first?.fingerprint.checksum == (try ModelHasher.hash(plain).get()).checksum)
        #expect(ChainLock.read(lock.text, file: "chain.lock").0 == lock)
    }

    /// A lock written before Core Data's hashes (16-hex-digit fingerprints) is one CP403 saying
    /// how to upgrade; `lock` refuses to replace it silently, and `--force` rewrites it.
    @Test func anOldFormatLockSaysHowToUpgrade() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chain.lock")
        let old = try String(contentsOf: CLITests.root.appendingPathComponent("Tests/Fixtures/lock/fingerprint-format.chain.lock"), encoding: .utf8)
        try Data(old.utf8).write(to: url)
        let found = findings(directory)
        #expect(found.map(\.code) == [.unreadableLock])
        #expect(found.first?.message.contains("older chainplan") == true && found.first?.message.contains("chainplan lock --force") == true)
        let spec = directory.appendingPathComponent("chain.json").path
        #expect(await ChainPlan.run(arguments: ["validate", spec, "-o", "/dev/null"]) == 2)
        #expect(await ChainPlan.run(arguments: ["lock", spec]) == 2)
        #expect(try String(contentsOf: url, encoding: .utf8) == old)
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--force"]) == 0)
        #expect(try String(contentsOf: url, encoding: .utf8) != old)
        #expect(findings(directory).isEmpty)
    }

    /// Re-running `lock` keeps every locked version as it was locked: an edited one stays locked
    /// (exit 1, CP401 still reported) until `--force` rewrites it.
    @Test func relockingNeverRewritesSilently() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("chain.lock")
        let locked = try String(contentsOf: url, encoding: .utf8)
        let spec = directory.appendingPathComponent("chain.json").path
        #expect(await ChainPlan.run(arguments: ["lock", spec]) == 0)
        #expect(try String(contentsOf: url, encoding: .utf8) == locked)
        try edit(directory, "Model 2") { $0.replacingOccurrences(of: "optional=\"YES\"", with: "optional=\"NO\"") }
        #expect(await ChainPlan.run(arguments: ["lock", spec]) == 1)
        #expect(try String(contentsOf: url, encoding: .utf8) == locked)
        #expect(findings(directory).map(\.code) == [.shippedVersionChanged])
        let plan = ChainPlanner().lock(inputAt: URL(fileURLWithPath: spec), versions: nil)
        #expect(plan.kept == ["Model 2"] && plan.added.isEmpty && plan.rewritten.isEmpty && plan.dropped.isEmpty)
        let forced = ChainPlanner().lock(inputAt: URL(fileURLWithPath: spec), versions: nil, force: true)
        #expect(forced.rewritten == ["Model 2"] && forced.kept.isEmpty)
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--force"]) == 0)
        #expect(try String(contentsOf: url, encoding: .utf8) != locked)
        #expect(findings(directory).isEmpty)
    }

    @Test func chosenVersionsAndUnknownOnes() async throws {
        let directory = try await lockedExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let spec = directory.appendingPathComponent("chain.json").path
        // Choosing fewer versions never drops a locked one...
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--versions", "Model, Model 3"]) == 0)
        var text = try String(contentsOf: directory.appendingPathComponent("chain.lock"), encoding: .utf8)
        #expect(text.contains("version \"Model 3\"") && text.contains("version \"Model 2\""))
        // ...unless forced, which reports it.
        let plan = ChainPlanner().lock(inputAt: URL(fileURLWithPath: spec), versions: ["Model", "Model 3"], force: true)
        #expect(plan.dropped == ["Model 2"])
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--versions", "Model, Model 3", "--force"]) == 0)
        text = try String(contentsOf: directory.appendingPathComponent("chain.lock"), encoding: .utf8)
        #expect(text.contains("version \"Model 3\"") && !text.contains("version \"Model 2\""))
        #expect(await ChainPlan.run(arguments: ["lock", spec, "--versions", "Model 9"]) == 2)
    }
}

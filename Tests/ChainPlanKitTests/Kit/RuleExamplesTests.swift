import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore

/// Every rule's examples are its tests: each runs as `chainplan rules CPnnn` runs it and raises
/// exactly the findings of the rule's code it states (at the stated line and column, for a spec).
struct RuleExamplesTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var code: DiagnosticCode
        var example: RuleExample
        var testDescription: String { "\(code.rawValue): \(example.title)" }
    }

    static let cases: [Case] = RuleCatalogue.all.flatMap { code in code.examples.map { Case(code: code, example: $0) } }

    @Test(arguments: cases)
    func example(_ c: Case) throws {
        let diagnostics = try c.example.run()
        let found = diagnostics.filter { $0.code == c.code }
        let shown = diagnostics.map { "\($0.location?.description ?? "-") \($0.code.rawValue) \($0.message)" }
        switch c.example.expected {
        case .positions(let positions):
            #expect(!diagnostics.contains { $0.code == .unreadableSpec }, "the example's spec must parse: \(shown)")
            #expect(found.map { RuleExample.Position(line: $0.location?.line, column: $0.location?.column) } == positions, "\(shown)")
        case .count(let count):
            #expect(found.count == count, "\(shown)")
        case .inference:
            Issue.record("a code's example counts its findings; outcomes are for inference rules' examples")
        }
        switch c.example.input {
        case .versions:
            #expect(!diagnostics.contains { $0.code.unusableInput }, "the example's models must read: \(shown)")
        case .project where c.example.expectedCount == 0:
            // A counterexample runs cleanly: nothing unusable.
            #expect(!diagnostics.contains { $0.code.unusableInput }, "\(shown)")
        default:
            break
        }
    }

    @Test func everyRuleHasAFiringAndAQuietExample() {
        for code in RuleCatalogue.all {
            if !RuleCatalogue.withoutFiringExample.contains(code) {
                #expect(code.examples.contains { $0.expectedCount > 0 }, "\(code.rawValue) has no example that raises it")
            }
            #expect(code.examples.contains { $0.expectedCount == 0 }, "\(code.rawValue) has no example that must not raise it")
        }
    }
}

/// The catalogue is built from the rule files: each code is declared once, in a file named for
/// its rule, and the catalogue lists every declared code once, in code order.
struct RuleCatalogueTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    struct Declaration: Hashable {
        var id: String
        /// The static member, e.g. `selfLoop`.
        var member: String
        var name: String
        var file: String
        /// The target the file belongs to, e.g. `ChainPlanGraph`.
        var target: String
    }

    /// Every `public static let x = DiagnosticCode("CPnnn", name: "Name", …)` under `Sources`.
    static func declarations() throws -> [Declaration] {
        let pattern = try NSRegularExpression(pattern: #"static let (\w+) = DiagnosticCode\(\s*"(CP\d{3})", name: "(\w+)""#)
        var found: [Declaration] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let member = String(text[Range(match.range(at: 1), in: text)!])
                let id = String(text[Range(match.range(at: 2), in: text)!])
                let name = String(text[Range(match.range(at: 3), in: text)!])
                let target = url.pathComponents[url.pathComponents.lastIndex(of: "Sources")! + 1]
                found.append(Declaration(id: id, member: member, name: name, file: url.lastPathComponent, target: target))
            }
        }
        return found
    }

    @Test func eachCodeHasOneRuleFileNamedForIt() throws {
        let declarations = try Self.declarations()
        #expect(declarations.count == RuleCatalogue.all.count)
        #expect(declarations.map(\.id).sorted() == RuleCatalogue.all.map(\.rawValue))
        for declaration in declarations {
            #expect(declaration.file == declaration.name + ".swift", "\(declaration.id) is declared in \(declaration.file)")
            let code = RuleCatalogue.all.code(declaration.id)
            #expect(code?.name == declaration.name)
        }
        #expect(Set(declarations.map(\.file)).count == declarations.count, "a file declares two codes")
    }

    /// The codes whose findings carry the reason a reader gives (a file system's answer, a
    /// parser's error): raised where the reading fails, their rule files say where.
    static let raisedByReaders: Set<String> = [
        "unreadableSpec", "unreadableModelBundle", "malformedModelXML", "unreadableMappingModel", "invalidConfiguration", "unreadableStore",
    ]

    /// A finding is made in its code's rule file: its message and detection live there. Only the
    /// readers' codes are made where the reading fails.
    @Test func findingsAreMadeInTheirRuleFiles() throws {
        let declarations = try Self.declarations()
        let fileOfMember = Dictionary(declarations.map { ($0.member, $0.file) }, uniquingKeysWith: { first, _ in first })
        let pattern = try NSRegularExpression(pattern: #"Diagnostic\(\s*\.(\w+)"#)
        var strays: [String] = []
        let files = FileManager.default.enumerator(at: Self.sources, includingPropertiesForKeys: nil)
        while let url = files?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let member = String(text[Range(match.range(at: 1), in: text)!])
                guard let file = fileOfMember[member], file != url.lastPathComponent, !Self.raisedByReaders.contains(member) else { continue }
                strays.append("\(member) in \(url.lastPathComponent)")
            }
        }
        #expect(strays.isEmpty, "\(strays.sorted())")
        #expect(Self.raisedByReaders.isSubset(of: Set(fileOfMember.keys)))
    }

    @Test func theCatalogueIsInCodeOrderWithUniqueIdsAndNames() {
        let ids = RuleCatalogue.all.map(\.rawValue)
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
        #expect(Set(RuleCatalogue.all.map(\.name)).count == ids.count)
        for code in RuleCatalogue.all {
            #expect(!code.summary.hasSuffix("."), "\(code.rawValue)")
            #expect(!code.help.isEmpty, "\(code.rawValue)")
        }
    }

    /// A plan's codes are exactly those declared in the stages up to planning, in code order.
    @Test func planningRulesAreTheCodesDeclaredUpToPlanning() throws {
        let abovePlanning: Set<String> = ["ChainPlanStore", "ChainPlanOutput", "ChainPlanKit", "ChainPlanCLI"]
        let declared = try Self.declarations().filter { !abovePlanning.contains($0.target) }.map(\.id).sorted()
        #expect(PlanningRules.all.map(\.rawValue) == declared)
    }
}

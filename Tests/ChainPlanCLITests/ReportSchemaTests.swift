import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanCLI

/// The published schema of the JSON document (`Schemas/report.schema.json`) describes what
/// chainplan really prints: every key of every object is declared, required keys are there,
/// and enumerated values are among the allowed ones. The schema itself stays open
/// (`additionalProperties` is not false) so that consumers survive new optional fields;
/// this test is what keeps it complete.
struct ReportSchemaTests {
    static let schemaURL = CLITests.root.appendingPathComponent("Schemas/report.schema.json")

    /// A minimal walker over the JSON Schema subset the document uses:
    /// `type`, `properties`, `required`, `items`, `enum`, `const` and local `$ref`s.
    struct Walker {
        let root: [String: Any]
        var problems: [String] = []

        mutating func check(_ value: Any, against node: [String: Any], at path: String) {
            if let reference = node["$ref"] as? String {
                let name = reference.replacingOccurrences(of: "#/$defs/", with: "")
                guard let definitions = root["$defs"] as? [String: Any], let resolved = definitions[name] as? [String: Any] else {
                    problems.append("\(path): unresolvable \(reference)")
                    return
                }
                return check(value, against: resolved, at: path)
            }
            if let alternatives = node["anyOf"] as? [[String: Any]] {
                // Only "X or null" is used: null needs a null branch, anything else the other branch.
                let allowsNull = { (branch: [String: Any]) in
                    (branch["type"] as? String) == "null" || (branch["type"] as? [String])?.contains("null") == true
                }
                if value is NSNull {
                    if !alternatives.contains(where: allowsNull) { problems.append("\(path): null is not allowed") }
                    return
                }
                guard let branch = alternatives.first(where: { ($0["type"] as? String) != "null" }) else {
                    return problems.append("\(path): \(value) matches no alternative")
                }
                return check(value, against: branch, at: path)
            }
            if let allowed = node["enum"] as? [Any], !allowed.contains(where: { "\($0)" == "\(value)" }) {
                problems.append("\(path): \(value) is not one of \(allowed)")
            }
            if let constant = node["const"], "\(constant)" != "\(value)" {
                problems.append("\(path): \(value) is not \(constant)")
            }
            if let object = value as? [String: Any] {
                let properties = node["properties"] as? [String: Any] ?? [:]
                for key in object.keys.sorted() {
                    guard let child = properties[key] as? [String: Any] else {
                        problems.append("\(path).\(key): not described by the schema")
                        continue
                    }
                    check(object[key]!, against: child, at: "\(path).\(key)")
                }
                for key in node["required"] as? [String] ?? [] where object[key] == nil {
                    problems.append("\(path): required '\(key)' is missing")
                }
            } else if let array = value as? [Any], let items = node["items"] as? [String: Any] {
                for (index, element) in array.enumerated() { check(element, against: items, at: "\(path)[\(index)]") }
            }
        }
    }

    static func problems(in data: Data) throws -> [String] {
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
        let document = try JSONSerialization.jsonObject(with: data)
        var walker = Walker(root: schema)
        walker.check(document, against: schema, at: "$")
        return walker.problems
    }

    static let inputs: [String] = CommandTests.scenarios.map { "Chains/\($0)/chain.json" } + [
        "Chains/invalid/CP104-cycle.json",
        "Chains/invalid/CP108-dead-end.json",
    ]

    /// Real histories, in ReportSchemaCorpusTests.
    static let corpusInputs: [String] = [
        "../shared/corpus/woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld",
        "../shared/corpus/rileytestut__Delta/Delta/Database/Model/Delta.xcdatamodeld",
    ]

    @Test(arguments: inputs)
    func everyKeyIsDescribed(_ input: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("report.json")
        _ = await ChainPlan.run(arguments: ["paths", CLITests.root.appendingPathComponent(input).path, "--format", "json", "-o", out.path])
        let problems = try Self.problems(in: Data(contentsOf: out))
        #expect(problems.isEmpty, "\(problems.prefix(10))")
    }

    /// Every classified step carries `mappingModel` (null when none covers it), and an unreachable
    /// path names the target whenever the chain has one.
    @Test(arguments: ["Chains/grocery-dude/chain.json", "Chains/invalid/CP108-dead-end.json"])
    func mappingModelIsNullAndTargetIsKept(_ input: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("report.json")
        _ = await ChainPlan.run(arguments: ["paths", CLITests.root.appendingPathComponent(input).path, "--format", "json", "-o", out.path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: out)) as? [String: Any])
        let target = document["target"] as? String
        for step in document["steps"] as? [[String: Any]] ?? [] where step["migration"] != nil {
            #expect(step.keys.contains("mappingModel"), "\(step)")
            #expect(step["mappingModel"] is NSNull || step["mappingModel"] is [String: Any])
        }
        for path in document["paths"] as? [[String: Any]] ?? [] {
            #expect(path["target"] as? String == target, "\(path)")
        }
        if input.contains("CP108") {
            #expect(target == "Model 4")
            #expect((document["paths"] as? [[String: Any]])?.contains { $0["reachable"] as? Bool == false } == true)
        } else {
            #expect((document["steps"] as? [[String: Any]])?.contains { $0["mappingModel"] is NSNull } == true)
        }
        #expect(try Self.problems(in: Data(contentsOf: out)).isEmpty)
    }

    /// The walker itself must notice an undeclared key, a missing required key and a bad enum value.
    @Test func theWalkerCatchesDrift() throws {
        let document = #"{"schemaVersion": 1, "tool": {"name": "chainplan", "version": "x"}, "spec": "s", "versions": [], "steps": [{"from": "A", "to": "B", "migration": "sideways", "surprise": 1}], "paths": [], "diagnostics": [], "summary": {"errors": 0, "warnings": 0, "notes": 0}}"#
        let problems = try Self.problems(in: Data(document.utf8))
        #expect(problems.contains { $0.contains("$.steps[0].surprise") })
        #expect(problems.contains { $0.contains("$.steps[0].migration") })
        #expect(problems.contains { $0.contains("required 'verdict'") })
    }
}

extension CorpusTests {
    @Suite struct ReportSchemaCorpusTests {
        @Test(arguments: ReportSchemaTests.corpusInputs)
        func everyKeyIsDescribed(_ input: String) async throws {
            try await ReportSchemaTests().everyKeyIsDescribed(input)
        }
    }
}

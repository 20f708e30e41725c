import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import ChainPlanSwiftSource

extension DiagnosticCode {
    /// CP610 DuplicateSchemaChecksum: two SwiftData schemas build models with one checksum.
    ///
    /// Raised by `SwiftDataPlanCheck` (reference swiftdata §6, §8 items 4 and 10), in place of CP123 for SwiftData sources.
    package static let duplicateSchemaChecksum = DiagnosticCode(
        "CP610", name: "DuplicateSchemaChecksum", severity: .warning,
        summary: "Two SwiftData schemas build models with the same checksum",
        help: "Core Data tells model versions apart by their checksum, which hashes entity shapes only: not the `versionIdentifier`, `#Index`, default values, delete rules or an `@Attribute(.codable)` payload's shape. Two schemas with one checksum are one version to Core Data. A stage over both throws when the container is built (an error): a lightweight stage listing both, \"Duplicate version checksums detected.\"; a `.custom` stage between them, \"The current model reference and the next model reference cannot be equal.\" (unverified for SwiftData); otherwise stores of either cannot be told apart and no migration runs between them (a warning). The message says why they are equal: the same classes listed, the same classes pulled in through relationships, or copies that differ only in what the checksum does not see. Change the shape of the newer schema (or give an entity a `hashModifier:`), or drop it.",
        examples: [
            .project("V2 only raises the identifier and gives 'title' a default; a lightweight stage runs over both", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String?"), ("V2", "2.0.0", "var title: String? = \"Untitled\"")],
                                              stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)"),
            ], input: "Models.swift", expected: 1),
            .project("V2 adds a property", files: [
                RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String?"), ("V2", "2.0.0", "var title: String?\nvar body: String?")],
                                              stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)"),
            ], input: "Models.swift", expected: 0),
        ])
}

/// CP610: every later schema of `order` whose checksum an earlier one has, paired with the
/// earlier schema one stage holds it with (else the first of that checksum); an error when a stage
/// holds both, else a warning.
enum DuplicateSchemaChecksumCheck {
    /// A stage as SwiftData builds it: where it is written, and whether it is custom.
    struct Stage {
        var location: SourceLocation
        var custom: Bool
    }

    static func findings(order: [String], checksums: [String: String], versions: [String: SwiftSchemaVersion],
                         models: [String: ObjectModel], together: (String, String) -> Stage?) -> [Diagnostic] {
        var earlier: [String: [String]] = [:]
        var findings: [Diagnostic] = []
        for name in order {
            guard let checksum = checksums[name] else { continue }
            let same = earlier[checksum, default: []]
            earlier[checksum, default: []].append(name)
            guard let first = same.first else { continue }
            var paired: (String, Stage)?
            for other in same where paired == nil {
                if let stage = together(other, name) { paired = (other, stage) }
            }
            let other = paired?.0 ?? first
            let why = reason(versions[other], versions[name], models[other], models[name])
            var message = "'\(name)' builds the same model as '\(other)' (checksum \(checksum)): \(why)"
            switch paired?.1 {
            case nil:
                message += "; Core Data cannot tell their stores apart and runs no migration between them"
            case let stage? where stage.custom:
                message += "; the custom stage between them throws \"\(StageSimulation.Reason.equalEndpoints)\" when the container is built (unverified for SwiftData, §11.9)"
            case .some:
                message += "; the lightweight stage over both throws \"\(StageSimulation.Reason.duplicateInStage)\" when the container is built"
            }
            let location = paired?.1.location ?? versions[name]?.location ?? SourceLocation(file: "")
            findings.append(Diagnostic(.duplicateSchemaChecksum, severity: paired == nil ? .warning : .error, message, at: location,
                                       versions: [other, name]))
        }
        return findings
    }

    /// Why two schemas build one model.
    static func reason(_ a: SwiftSchemaVersion?, _ b: SwiftSchemaVersion?, _ old: ObjectModel?, _ new: ObjectModel?) -> String {
        guard let a, let b else { return "their entities hash the same" }
        if Set(a.types) == Set(b.types) {
            let classes = a.types.map { "'\($0)'" }.abbreviated.joined(separator: ", ")
            return Set(a.roots) == Set(b.roots)
                ? "both list the same model classes (\(classes))"
                : "both graphs pull in the same classes (\(classes)) through relationships"
        }
        var differences = (old.flatMap { old in new.map { HashIdenticalVersionsCheck.unhashedDifferences(old, $0) } } ?? []).map(\.text)
        differences += deleteRuleChanges(old, new) + CodablePayloadCheck.changes(a, b).map(\.1)
        let identifiers = a.identifier != b.identifier ? "versionIdentifier \(a.identifier ?? "?") → \(b.identifier ?? "?")" : nil
        if differences.isEmpty {
            return "their classes are copies of one shape" + (identifiers.map { "; only the \($0) differs" } ?? "")
        }
        return "their classes differ only in what the checksum does not see: " + HashIdenticalVersionsCheck.listed(differences + (identifiers.map { [$0] } ?? []))
    }

    /// Delete rules that change between two models (not hashed).
    static func deleteRuleChanges(_ old: ObjectModel?, _ new: ObjectModel?) -> [String] {
        guard let old, let new else { return [] }
        var changes: [String] = []
        for entity in new.entities {
            guard let previous = old.entities.first(where: { $0.name == entity.name }) else { continue }
            for relationship in entity.relationships {
                guard let was = previous.relationships.first(where: { $0.name == relationship.name }), was.deletionRule != relationship.deletionRule else { continue }
                changes.append("'\(entity.name).\(relationship.name)' delete rule \(was.deletionRule) → \(relationship.deletionRule)")
            }
        }
        return changes
    }
}

import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// `chainplan passes` as text: the passes in order with their entity mappings (and sizes from a
/// store), coverage, the relationships that cross passes and how each is set, the single-pass
/// memory, the staged alternative, and the findings.
package enum PassPlanText {
    package static func render(_ report: PassReport, spec: String) -> String {
        let plan = report.plan
        let source = report.mappingModels.isEmpty
            ? "the entity mappings it needs (no mapping model: one per destination entity from its source)"
            : "the entity mappings of " + report.mappingModels.map { "'\($0)'" }.joined(separator: ", ")
        var out = "Passes for '\(report.from)' → '\(report.to)' (\(report.bundle)), from \(source):\n"
        for (number, pass) in plan.passes.enumerated() {
            var line = "  pass \(number + 1): \(pass.entities.joined(separator: ", ")) — \(pass.entityMappings.joined(separator: ", "))"
            if let objects = pass.objects, let bytes = pass.memoryBytes {
                line += " (\(objects) object\(objects == 1 ? "" : "s"), about \(ByteSize.describe(bytes)))"
            }
            out += line + "\n"
        }
        if plan.coverage.unmapped.isEmpty && plan.coverage.mappedTwice.isEmpty {
            out += "Coverage: every kept source entity is mapped once.\n"
        } else {
            if !plan.coverage.unmapped.isEmpty { out += "Coverage: not mapped (data loss): \(plan.coverage.unmapped.joined(separator: ", ")).\n" }
            if !plan.coverage.mappedTwice.isEmpty { out += "Coverage: mapped twice: \(plan.coverage.mappedTwice.joined(separator: ", ")).\n" }
        }
        if !plan.crossPass.isEmpty {
            out += "Relationships between passes (associations do not cross migrateStore calls):\n"
            for link in plan.crossPass {
                switch link.fix {
                case .fetchByKey:
                    out += "  \(link.entity).\(link.relationship) → \(link.target): set in the later pass, fetching the migrated object by its unique key '\(link.key ?? "")'\n"
                case .samePass:
                    out += "  \(link.entity).\(link.relationship) → \(link.target): no unique key to fetch by, so the passes were merged\n"
                }
            }
        }
        if let bytes = plan.singlePassMemoryBytes {
            out += "One pass would hold about \(ByteSize.describe(bytes)) of objects"
                + (report.maxMemoryBytes.map { "; the limit is \(ByteSize.describe($0))" } ?? "") + " (the dry run's estimate).\n"
        } else {
            out += "Pass sizes unknown: give --store with a store to size them.\n"
        }
        out += "Alternative (iOS 17+): staged migration — expand (lightweight), copy the data in batches in a custom stage's handler, contract (lightweight, and deferrable with NSPersistentStoreDeferredLightweightMigrationOptionKey); `chainplan stage \(spec)` writes it.\n"
        if !report.diagnostics.isEmpty {
            out += "\n" + report.diagnostics.map { TextReporter.line(for: $0, color: false) + "\n" }.joined()
        }
        return out
    }
}

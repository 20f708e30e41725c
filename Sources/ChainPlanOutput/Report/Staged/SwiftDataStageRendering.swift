import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// Renders what a SwiftData plan without stages does and the stages it needs, as text, JSON or
/// the Swift of its `stages` property. Pure functions of the suggestion and the stage plan.
package enum SwiftDataStageRendering {
    /// The JSON document: the suggestion, and, when it has stages, each start's run with them and
    /// their checks.
    struct Document: Encodable {
        var plan: String
        var appSchema: String
        var today: [SwiftDataStageSuggestion.Today]
        var stages: [SwiftDataStageSuggestion.Stage]
        /// True when a schema cannot be read: which stages are needed is not known.
        var unreadable: Bool
        /// Each start's run with the suggested stages; absent when none is suggested.
        var starts: [StageRun]?
        /// The suggested stages' checks (none when none is suggested).
        var findings: [Diagnostic]
    }

    package static func json(_ suggestion: SwiftDataStageSuggestion, plan: StagePlan) -> Data {
        JSONEnvelope.encode(Document(plan: suggestion.plan, appSchema: suggestion.appSchema, today: suggestion.today, stages: suggestion.stages,
                                     unreadable: suggestion.unreadable, starts: suggestion.stages.isEmpty ? nil : plan.starts, findings: suggestion.stages.isEmpty ? [] : plan.findings))
    }

    package static func text(_ suggestion: SwiftDataStageSuggestion, plan: StagePlan, shown: String) -> String {
        var out = "SwiftData \(shown) has no stages: a store of an older schema migrates straight to '\(suggestion.appSchema)', "
            + "its mapping inferred (a plain automatic migration).\n"
        guard !suggestion.today.isEmpty else { return out + "\nThere is no older schema: nothing migrates.\n" }
        out += "\nToday, per start:\n"
        for start in suggestion.today {
            out += "  '\(start.start)': straight to '\(suggestion.appSchema)': \(describe(start))\n"
            for change in start.blocking { out += "     \(change)\n" }
            for change in start.losing { out += "     deletes data: \(change)\n" }
        }
        if suggestion.unreadable {
            return out + "\nWhich stages the plan needs is not known: a schema cannot be read without a build (CP602 says why; `chainplan validate` lists it).\n"
        }
        guard !suggestion.stages.isEmpty else {
            return out + "\nNo stage needed: every older schema's store migrates to '\(suggestion.appSchema)' by inference, keeping what stepping through the schemas keeps.\n"
        }
        out += "\nStages the plan needs (`--format swift` writes them as Swift):\n"
        for (index, stage) in suggestion.stages.enumerated() {
            out += "  \(index + 1). \(call(stage))\n     \(stage.reason)\n"
        }
        if suggestion.stages.count > 1 {
            out += "  unverified: stages that meet at a schema rest on how SwiftData lists a shared schema (reference swiftdata §11.7, §11.8); "
                + "chainplan reads it as listed once, as public plans that chain their stages need\n"
        }
        return out + StagePlanRendering.startsAndChecks(plan, heading: "With them, per start")
    }

    /// The plan's `stages` property with the suggested stages, each custom stage's handlers
    /// listing the data they move (chainplan does not write SwiftData handler code).
    package static func swift(_ suggestion: SwiftDataStageSuggestion) -> String {
        var out = "// The stages '\(suggestion.plan)' needs, as chainplan plans them: replace its `stages` with this.\n"
        out += "static var stages: [MigrationStage] {\n    [\n"
        for stage in suggestion.stages {
            if stage.kind == .custom {
                out += "        .custom(\n            fromVersion: \(stage.fromVersion).self,\n            toVersion: \(stage.toVersion).self,\n"
                if stage.handlers {
                    out += "            willMigrate: { context in\n"
                    out += "                // At '\(stage.fromVersion)': \(comment(stage.reason))\n"
                    for work in stage.work where !work.read.isEmpty {
                        out += "                // read \(work.entity): \(work.read.joined(separator: ", "))\n"
                    }
                    out += "            },\n            didMigrate: { context in\n"
                    for work in stage.work where !work.write.isEmpty {
                        out += "                // write \(work.nextEntity ?? work.entity): \(work.write.joined(separator: ", ")) (\(comment(work.detail)))\n"
                    }
                    out += "            }\n        ),\n"
                } else {
                    out += "            willMigrate: nil,\n            didMigrate: nil\n        ), // \(comment(stage.reason))\n"
                }
            } else {
                out += "        \(call(stage)),\n"
            }
        }
        return out + "    ]\n}\n"
    }

    /// `.lightweight(fromVersion: V1.self, toVersion: V2.self)`, or the custom stage's call in short.
    static func call(_ stage: SwiftDataStageSuggestion.Stage) -> String {
        let versions = "fromVersion: \(stage.fromVersion).self, toVersion: \(stage.toVersion).self"
        guard stage.kind == .custom else { return ".lightweight(\(versions))" }
        return ".custom(\(versions), " + (stage.handlers ? "willMigrate: { … }, didMigrate: { … })" : "willMigrate: nil, didMigrate: nil)")
    }

    static func describe(_ start: SwiftDataStageSuggestion.Today) -> String {
        switch start.migration {
        case .none: "nothing to migrate (same checksum)"
        case .lightweight: "inferred"
        case .heavyweight: "fails: not inferable (a SwiftData app has no mapping model)"
        case .unknown: "unknown (a schema cannot be read)"
        }
    }

    /// `text` on one comment line.
    static func comment(_ text: String) -> String {
        text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
    }
}

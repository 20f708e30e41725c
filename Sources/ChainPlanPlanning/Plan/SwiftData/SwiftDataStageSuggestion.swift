import ChainPlanCore
import ChainPlanInference
import ChainPlanSwiftSource

/// What a SwiftData plan whose `stages` is empty does today, and the stages it needs.
///
/// Without stages SwiftData runs a plain automatic migration: a store of any older schema goes
/// straight to the last one, its mapping inferred (reference swiftdata §7.1 item 5). The stages
/// suggested are chainplan's stage plan for the plan's schemas, each Core Data stage written as
/// the `MigrationStage` that SwiftData's translation (`SwiftDataPlanCheck`) turns back into it:
/// a custom stage from its current to its next model; a lightweight stage from its first
/// version to the version where the next stage begins (the last schema after the last stage),
/// whose shared end the translation lists once.
package struct SwiftDataStageSuggestion: Sendable, Hashable, Codable {
    /// One start's plain automatic migration today.
    package struct Today: Sendable, Hashable, Codable {
        package var start: String
        /// The direct jump's migration; `heavyweight` (a mapping model, which a SwiftData app does
        /// not have) fails.
        package var migration: MigrationKind
        /// The changes that block inferring the jump.
        package var blocking: [String]
        /// The changes whose data the jump deletes.
        package var losing: [String]
    }

    /// One suggested `MigrationStage`, with why the stage plan has it.
    package struct Stage: Sendable, Hashable, Codable {
        package var kind: MigrationStage.Kind
        package var fromVersion: String
        package var toVersion: String
        /// A custom stage's handlers do data work (else both are `nil`: the stage only forces stepping).
        package var handlers: Bool
        package var reason: String
        /// The data a custom stage's handlers move.
        package var work: [DataWork]
    }

    /// The plan's name.
    package var plan: String
    /// The last schema, every store's destination.
    package var appSchema: String
    package var today: [Today]
    /// Empty when every direct jump infers and keeps what stepping would keep (no stage needed),
    /// or when `unreadable` (which stages are needed is not known).
    package var stages: [Stage]

    /// A schema's model cannot be built without a build (CP602 says why): no stage is suggested.
    package var unreadable: Bool { today.contains { $0.migration == .unknown } }

    /// The suggestion for `plan`, from the chain's report (each start's direct jump) and the stage
    /// plan made for the same schemas.
    package init(plan: SwiftMigrationPlan, report: ChainReport, stagePlan: StagePlan) {
        self.plan = plan.name
        appSchema = stagePlan.appModel
        today = report.paths.compactMap { path in
            guard path.start != stagePlan.appModel,
                  let step = report.steps.first(where: { $0.from == path.start && $0.to == path.next }) else { return nil }
            let changes = step.changes ?? []
            return Today(start: path.start, migration: step.migration ?? .unknown,
                         blocking: changes.filter { $0.verdict == .blocksInference }.map(\.detail),
                         losing: changes.filter { $0.verdict == .dataLoss }.map(\.detail))
        }
        stages = []
        if !unreadable { stages = Self.stages(translating: stagePlan.stages, appSchema: stagePlan.appModel) }
    }

    /// Core Data `stages` as the SwiftData stages whose translation they are; none when they
    /// are all lightweight (every store then jumps straight to `appSchema` anyway).
    package static func stages(translating all: [MigrationStage], appSchema: String) -> [Stage] {
        guard all.contains(where: { $0.kind == .custom }) else { return [] }
        return all.indices.compactMap { index in
            let stage = all[index]
            guard var from = stage.versions.first, var to = stage.versions.last else { return nil }
            if stage.kind == .lightweight {
                // Up to where the next stage begins (listed there, so dropped here), else the last schema.
                to = index + 1 < all.count ? all[index + 1].versions.first ?? to : appSchema
                // A stage of the last schema alone starts where the custom stage before it ends.
                if from == to, index > 0, let previous = all[index - 1].versions.last { from = previous }
            }
            return Stage(kind: stage.kind, fromVersion: from, toVersion: to, handlers: stage.kind == .custom && stage.handlers,
                         reason: stage.reason, work: stage.work)
        }
    }
}

import ChainPlanCore
import ChainPlanReaders
import ChainPlanSwiftSource

/// A plan's stages as SwiftData resolves them (reference swiftdata §7.1 item 1): each end is found
/// among the plan's `schemas` by its `versionIdentifier`, not by type; the first schema listed
/// with a version is the one found (which one SwiftData picks when two share it is open, §11.10).
struct PlanStages {
    /// One stage and what became of it.
    enum Resolution {
        /// Both ends found: their positions in `schemas`.
        case resolved(from: Int, to: Int)
        /// An end whose version no listed schema has (SwiftDataError.unknownSchema).
        case notInPlan(schema: String, identifier: String)
        /// `toVersion` earlier than `fromVersion` (SwiftDataError.backwardMigration).
        case backward(from: (String, String), to: (String, String))
        /// An end whose `versionIdentifier` could not be read (CP602 says why).
        case unreadable
    }

    var plan: SwiftMigrationPlan
    /// Each stage of the plan, in order, with its resolution.
    var stages: [(stage: SwiftMigrationPlan.Stage, resolution: Resolution)]
    /// Each version's first position in `schemas`.
    var positionOfVersion: [String: Int]
    /// Schemas listed with a version an earlier schema has: (position, the earlier one's position).
    var repeatedVersions: [(position: Int, first: Int)]

    /// Resolves `plan`'s stages; `identifiers`: each schema's `versionIdentifier`, by type name.
    init(_ plan: SwiftMigrationPlan, identifiers: [String: String]) {
        self.plan = plan
        var positions: [String: Int] = [:]
        var repeated: [(Int, Int)] = []
        for (position, schema) in plan.schemas.enumerated() {
            guard let version = identifiers[schema] else { continue }
            if let first = positions[version] { repeated.append((position, first)) } else { positions[version] = position }
        }
        positionOfVersion = positions
        repeatedVersions = repeated
        stages = plan.stages.map { stage in
            guard let fromVersion = identifiers[stage.from], let toVersion = identifiers[stage.to] else { return (stage, .unreadable) }
            guard let from = positions[fromVersion] else { return (stage, .notInPlan(schema: stage.from, identifier: fromVersion)) }
            guard let to = positions[toVersion] else { return (stage, .notInPlan(schema: stage.to, identifier: toVersion)) }
            if VersionOrder.areInIncreasingOrder(toVersion, fromVersion) {
                return (stage, .backward(from: (stage.from, fromVersion), to: (stage.to, toVersion)))
            }
            return (stage, .resolved(from: from, to: to))
        }
    }

    /// True when SwiftData builds every stage: none refused or unreadable.
    var allResolved: Bool {
        stages.allSatisfy { if case .resolved = $0.resolution { true } else { false } }
    }

    /// The custom stages SwiftData builds, as steps between the schemas found, and whether each
    /// has a `willMigrate`.
    var customSteps: [(step: Located<StepKey>, hasWillMigrate: Bool)] {
        stages.compactMap { entry in
            guard entry.stage.kind == .custom, case .resolved(let from, let to) = entry.resolution else { return nil }
            let step = Located(StepKey(from: plan.schemas[from], to: plan.schemas[to]), at: entry.stage.location ?? plan.location ?? SourceLocation(file: ""))
            return (step, entry.stage.hasWillMigrate)
        }
    }
}

extension SwiftMigrationPlan {
    /// Where the `schemas` entry at `position` is written, else where the plan is.
    func location(ofSchemaAt position: Int) -> SourceLocation? {
        (position < schemaLocations.count ? schemaLocations[position] : nil) ?? location
    }
}

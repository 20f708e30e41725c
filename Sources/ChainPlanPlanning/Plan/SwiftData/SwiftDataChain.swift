import ChainPlanCore
import ChainPlanReaders
import ChainPlanSwiftSource
import Foundation

/// SwiftData sources as the planning stages read them: one model version per schema, named by
/// its type (`SchemaV2`); the chain of the chosen `SchemaMigrationPlan` (its `schemas`, oldest
/// first), with its `.custom` stages as the spec's custom stages; without a plan, every schema in
/// `versionIdentifier` order (an inferred chain, CP110).
///
/// A plan with `stages: []` migrates every store straight to the last schema (reference §7.1
/// item 5): the chain is then empty, every version going to the target.
package struct SwiftDataChain: Sendable {
    /// What the reader read.
    package var project: SwiftDataProject
    /// The plan checked; nil when the sources hold none, or it cannot be chosen (CP605).
    package var plan: SwiftMigrationPlan?
    /// The plan's stages resolved by version, as SwiftData resolves them (nil without a plan).
    var stages: PlanStages?
    /// The schema versions as a model bundle.
    package var bundle: ModelBundle
    /// The chain planned.
    package var spec: ChainSpec
    /// True when no spec and no plan gave the order.
    package var isInferred: Bool
    /// The reader's findings, and CP605 when no plan can be chosen.
    package var findings: [Diagnostic]

    /// The chain of `project` (read from `path`, as displayed). `written`: the spec that names
    /// the sources (`swiftdata`), whose `chain`, `plan`, `target` and `stages` are kept; nil when
    /// the sources were given directly.
    package init(_ project: SwiftDataProject, path: String, written: ChainSpec?) {
        self.project = project
        var findings = project.diagnostics
        findings += Self.unverifiedCauses(of: project.versions, path: path)
        let plan = Self.choosePlan(project.plans, named: written?.migrationPlan, location: written?.file ?? path, findings: &findings)
        self.plan = plan
        // With a plan, its schemas are the versions (a schema no plan lists takes part in no migration).
        let listed = plan.map { Set($0.schemas) }
        let versions = project.versions.filter { listed?.contains($0.name) ?? true }.map(Self.modelVersion)
        let current = plan?.schemas.last ?? project.versions.last?.name
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        bundle = ModelBundle(name: name.isEmpty ? "SwiftData" : name, path: path, versions: versions, currentVersion: current)

        var spec = written ?? ChainSpec.inferred(versions: [], file: path)
        var inferred = false
        if spec.form == .empty, spec.arrayEntries.isEmpty, spec.treeEntries.isEmpty {
            if let plan {
                let at = plan.location ?? SourceLocation(file: path)
                if plan.stages.isEmpty {
                    // No stages: a plain automatic migration from every version to the last.
                    spec.form = .empty
                    if spec.target == nil, let last = plan.schemas.last { spec.target = Located(last, at: at) }
                } else {
                    spec.form = plan.schemas.isEmpty ? .empty : .array
                    spec.arrayEntries = plan.schemas.enumerated().map { offset, schema in
                        Located(schema, at: plan.location(ofSchemaAt: offset) ?? at)
                    }
                    spec.chainLocation = at
                }
            } else {
                let names = project.versions.map(\.name)
                spec.form = names.isEmpty ? .empty : .array
                spec.arrayEntries = names.map { Located($0, at: SourceLocation(file: path)) }
                spec.inferredOrder = InferredOrder(versions: names, evidence: .versionIdentifiers, leftOut: [])
                inferred = written == nil && names.count > 1
            }
        }
        if let plan {
            let identifiers = Dictionary(project.versions.compactMap { version in version.identifier.map { (version.name, $0) } },
                                         uniquingKeysWith: { first, _ in first })
            let resolved = PlanStages(plan, identifiers: identifiers)
            stages = resolved
            // The custom stages SwiftData builds, between the schemas its version lookup finds.
            for (step, hasWillMigrate) in resolved.customSteps where !spec.customStages.contains(where: { $0.value == step.value }) {
                spec.customStages.append(step)
                if !hasWillMigrate { spec.customStagesWithoutWillMigrate.insert(step.value) }
            }
        }
        self.spec = spec
        isInferred = inferred
        self.findings = findings
    }

    /// A schema as a bundle's version. Its path is the file that declares its classes, so that
    /// the lines its model records locate findings; when they are declared in several files, the
    /// lines are dropped (a finding then names the schema's file alone, never a wrong line).
    static func modelVersion(_ version: SwiftSchemaVersion) -> ModelVersion {
        guard version.modelFiles.count > 1 else {
            return ModelVersion(name: version.name, path: version.modelFiles.first ?? version.location?.file ?? "", model: version.model)
        }
        var model = version.model
        if var stripped = model {
            for index in stripped.entities.indices {
                stripped.entities[index].line = nil
                stripped.entities[index].column = nil
                for attribute in stripped.entities[index].attributes.indices {
                    stripped.entities[index].attributes[attribute].line = nil
                    stripped.entities[index].attributes[attribute].column = nil
                }
                for relationship in stripped.entities[index].relationships.indices {
                    stripped.entities[index].relationships[relationship].line = nil
                    stripped.entities[index].relationships[relationship].column = nil
                }
            }
            model = stripped
        }
        return ModelVersion(name: version.name, path: version.location?.file ?? version.modelFiles[0], model: model)
    }

    /// One CP611 note per open rule that some schema's hashes rest on, naming every schema it
    /// affects (located at the first).
    static func unverifiedCauses(of versions: [SwiftSchemaVersion], path: String) -> [Diagnostic] {
        var affected: [String: [SwiftSchemaVersion]] = [:]
        var causes: [String] = []
        for version in versions {
            for cause in version.unverified {
                if affected[cause] == nil { causes.append(cause) }
                affected[cause, default: []].append(version)
            }
        }
        return causes.map { cause in
            let schemas = affected[cause] ?? []
            let names = schemas.map { "'\($0.name)'" }.abbreviated.joined(separator: ", ")
            return .unverifiedSwiftDataRule("\(schemas.count == 1 ? "the hashes and checksum of schema" : "the hashes and checksums of schemas") \(names) rest on a rule the SwiftData reference leaves open: \(cause)",
                                            at: schemas.first?.location ?? SourceLocation(file: path), versions: schemas.map(\.name))
        }
    }

    /// The plan `name` names (by its qualified or its own name), or the only plan when none is
    /// named; nil with a CP605 finding when the name matches none or several, or several plans
    /// exist and none is named.
    static func choosePlan(_ plans: [SwiftMigrationPlan], named name: Located<String>?, location file: String,
                           findings: inout [Diagnostic]) -> SwiftMigrationPlan? {
        let declared = plans.map(\.name)
        guard let name else {
            guard plans.count > 1 else { return plans.first }
            findings.append(.migrationPlanNotChosen("the sources declare \(declared.count) SchemaMigrationPlans (\(declared.map { "'\($0)'" }.abbreviated.joined(separator: ", "))); name the one the app passes with \"plan\" in a spec",
                                                    at: SourceLocation(file: file)))
            return nil
        }
        let matches = plans.filter { $0.name == name.value || $0.name.split(separator: ".").last.map(String.init) == name.value }
        if matches.count == 1 { return matches[0] }
        let exact = plans.filter { $0.name == name.value }
        if exact.count == 1 { return exact[0] }
        let known = declared.isEmpty ? "the sources declare none" : "declared: " + declared.map { "'\($0)'" }.abbreviated.joined(separator: ", ")
        findings.append(.migrationPlanNotChosen(matches.isEmpty
            ? "plan '\(name.value)' is not a SchemaMigrationPlan of the sources (\(known))"
            : "plan '\(name.value)' matches several SchemaMigrationPlans (\(matches.map { "'\($0.name)'" }.joined(separator: ", "))); write its qualified name",
            at: name.location))
        return nil
    }
}

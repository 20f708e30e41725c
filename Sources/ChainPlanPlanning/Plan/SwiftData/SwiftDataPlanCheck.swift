import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import ChainPlanSwiftSource

/// A `SchemaMigrationPlan` checked as SwiftData and Core Data run it (reference swiftdata §7.1,
/// core-data-internals §6.1): each stage's schemas are found among the plan's `schemas` by
/// `versionIdentifier` (`PlanStages`: CP607 when none has it, CP608 when `toVersion` is the
/// earlier, CP609 when two schemas share one), then the stages, translated into Core Data's, go
/// through the stage audit and every start's simulation that `chainplan stage --check` runs.
/// Beside them: CP610 (schemas with one checksum) and CP612 (the container's model).
///
/// Translation: `.lightweight(A, C)` lists the checksums of the plan's schemas from A to C;
/// `.custom(A, B)` is a custom stage from A's checksum to B's. A schema where one stage ends and
/// the next begins is listed once, where Core Data's stage rules allow it: consecutive
/// lightweight stages merge (Core Data runs them as one jump either way, §6.1 fact 4); beside a
/// custom stage, the lightweight stage drops it. How SwiftData lists them, and whether its
/// manager checks stages against each other, are [open] (§11.7, §11.8): a plan that relies on
/// this gets a CP611 note, and the audit's cross-stage finding (CP502) is a warning marked
/// unverified.
package enum SwiftDataPlanCheck {
    /// Every finding on `chain`'s plan (CP610 on every version without one).
    package static func findings(_ chain: SwiftDataChain) -> [Diagnostic] {
        run(chain).findings
    }

    /// The plan's stages as Core Data runs them, for `stage`: every finding on the loaded sources
    /// and the plan, the spec's acceptances applied as `validate` applies them, and, when the
    /// translated stages could be audited, each start version's run; nil when the project is not
    /// SwiftData sources with a plan that has stages.
    package static func audit(of project: LoadedProject) -> (plan: SwiftMigrationPlan, starts: [StageRun]?, findings: [Diagnostic])? {
        guard let chain = project.swiftData, let plan = chain.plan, !plan.stages.isEmpty else { return nil }
        let result = run(chain)
        let findings = Acceptances.apply(project.spec.acceptances, to: project.findings + result.findings, lockedVersions: project.lockedVersions)
        return (plan, result.starts, findings.sorted())
    }

    /// Every finding on the plan, and each start's run when the translated stages were audited.
    private static func run(_ chain: SwiftDataChain) -> (findings: [Diagnostic], starts: [StageRun]?) {
        let identities = identitiesOfSchemas(chain)
        let versions = Dictionary(chain.project.versions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let checked = checked(chain, versions: versions, identities: identities)
        return (CodablePayloadCheck.findings(order: chain.bundle.versionNames, versions: versions, checksums: identities.mapValues(\.checksum))
                + checked.findings, checked.starts)
    }

    /// Every schema the sources declare, hashed (a container may name one the plan leaves out).
    private static func identitiesOfSchemas(_ chain: SwiftDataChain) -> [String: VersionIdentity] {
        var identities: [String: VersionIdentity] = [:]
        for version in chain.project.versions {
            guard let model = version.model, case .success(let hashes) = ModelHasher.hash(model, withProperties: false) else { continue }
            identities[version.name] = VersionIdentity(checksum: hashes.checksum, entityHashes: hashes.entities.mapValues { $0.base64EncodedString() })
        }
        return identities
    }

    /// The plan's findings, given each schema by name and the identity of each one the sources
    /// build, and each start's run when the translated stages were audited.
    private static func checked(_ chain: SwiftDataChain, versions: [String: SwiftSchemaVersion],
                                identities: [String: VersionIdentity]) -> (findings: [Diagnostic], starts: [StageRun]?) {
        let checksums = identities.mapValues(\.checksum)
        let models = Dictionary(chain.bundle.versions.compactMap { version in version.model.map { (version.name, $0) } }, uniquingKeysWith: { first, _ in first })
        func duplicates(_ order: [String], together: (String, String) -> DuplicateSchemaChecksumCheck.Stage? = { _, _ in nil }) -> [Diagnostic] {
            DuplicateSchemaChecksumCheck.findings(order: order, checksums: checksums, versions: versions, models: models, together: together)
        }
        guard let plan = chain.plan, let resolved = chain.stages else { return (duplicates(chain.bundle.versionNames), nil) }
        let planAt = plan.location ?? SourceLocation(file: chain.bundle.path)
        var findings = resolved.repeatedVersions.map { repeated in
            Diagnostic.duplicateSchemaVersion(plan.schemas[repeated.position], first: plan.schemas[repeated.first],
                                              identifier: versions[plan.schemas[repeated.position]]?.identifier ?? "?", plan: plan.name,
                                              at: plan.location(ofSchemaAt: repeated.position) ?? planAt)
        }
        // Without stages SwiftData runs a plain automatic migration (§7.1 item 5): no stage, no
        // coordinator-model check.
        guard !plan.stages.isEmpty else { return (findings + duplicates(plan.schemas), nil) }
        findings += ContainerSchemaCheck.findings(chain.project.containers, plan: plan, checksums: checksums)

        var stages: [RuntimeStage] = []
        var locations: [SourceLocation] = []
        var open: [String] = []
        var sharedAt: [String] = []
        // Each stage as SwiftData builds it: the schemas it lists, whether it is custom, where it is written.
        var written: [(members: Set<String>, custom: Bool, location: SourceLocation)] = []
        for (stage, resolution) in resolved.stages {
            let at = stage.location ?? planAt
            let from: Int, to: Int
            switch resolution {
            case .unreadable:
                continue // CP602 says why
            case .notInPlan(let schema, let identifier):
                findings.append(.stageSchemaNotInPlan(schema, identifier: identifier, plan: plan.name, at: at))
                continue
            case .backward(let earlier, let later):
                findings.append(.backwardMigrationStage(from: earlier, to: later, at: at))
                continue
            case .resolved(let start, let end):
                (from, to) = (start, end)
            }
            var translated: RuntimeStage
            switch stage.kind {
            case .custom:
                translated = RuntimeStage(kind: .custom, keys: [plan.schemas[from], plan.schemas[to]],
                                          hasHandlers: stage.hasWillMigrate || stage.hasDidMigrate)
            case .lightweight:
                translated = RuntimeStage(kind: .lightweight, keys: from <= to ? Array(plan.schemas[from...to]) : [plan.schemas[from]],
                                          hasHandlers: false)
                if to > from + 1 {
                    open.append("'\(plan.schemas[from])' → '\(plan.schemas[to])' spans \(to - from - 1) schema(s) between; chainplan lists their checksums in the stage (whether SwiftData does is open, §11.7)")
                } else if to < from {
                    open.append("'\(plan.schemas[from])' → '\(plan.schemas[to])': the plan lists '\(plan.schemas[to])' first although its version is later; chainplan lists only '\(plan.schemas[from])' in the stage (open, §11.7)")
                }
            }
            written.append((Set(translated.keys), stage.kind == .custom, at))
            // A schema where one stage ends and the next begins is listed once, where Core Data's
            // rules allow it (§6.1 fact 6): lightweight runs merge; a custom stage keeps its ends.
            if let previous = stages.last, let shared = translated.keys.first, previous.keys.last == shared {
                switch (previous.kind, translated.kind) {
                case (.lightweight, .lightweight):
                    stages[stages.count - 1].keys += translated.keys.dropFirst()
                    sharedAt.append("'\(shared)'")
                    continue
                case (.custom, .lightweight):
                    translated.keys.removeFirst()
                    sharedAt.append("'\(shared)'")
                    if translated.keys.isEmpty { continue }
                case (.lightweight, .custom):
                    stages[stages.count - 1].keys.removeLast()
                    sharedAt.append("'\(shared)'")
                    if stages[stages.count - 1].keys.isEmpty {
                        stages.removeLast()
                        locations.removeLast()
                    }
                case (.custom, .custom):
                    break
                }
            }
            stages.append(translated)
            locations.append(at)
        }
        // Schemas with one checksum: an error where one stage as SwiftData builds it holds both
        // (CP610 then stands for the stage findings this one cause makes: CP501, CP502, CP503).
        let equal = duplicates(plan.schemas) { a, b in
            written.first { $0.members.contains(a) && $0.members.contains(b) }.map { DuplicateSchemaChecksumCheck.Stage(location: $0.location, custom: $0.custom) }
        }
        findings += equal
        let explained = Set(equal.flatMap(\.versions))
        // Two schemas with one checksum in one stage fail the container before any stage runs:
        // the stages are still audited for their other findings, but no start runs.
        let containerFails = equal.contains { $0.severity == .error } || findings.contains { $0.code == .containerSchemaNotLast && $0.severity == .error }
        // A stage SwiftData refuses (CP607, CP608) fails the container before any stage runs; a
        // stage that cannot be read leaves the list incomplete; a schema without a model has no
        // checksum to run: the audit is left out then.
        guard resolved.allResolved, plan.schemas.allSatisfy({ identities[$0] != nil }), !stages.isEmpty else { return (findings, nil) }
        let keyed = stages.map { stage in
            RuntimeStage(kind: stage.kind, keys: stage.keys.compactMap { identities[$0]?.checksum }, hasHandlers: stage.hasHandlers)
        }
        let audit = StageListAudit.run(keyed, locations: locations, file: planAt.file,
                                       input: StageListAudit.Input(order: plan.schemas, identities: VersionIdentities(byVersion: identities, source: "\(chain.bundle.path) (computed)"),
                                                                   bundle: chain.bundle),
                                       location: planAt)
        let checksumCodes: Set<DiagnosticCode> = [.duplicateChecksumInStage, .equalCustomEndpoints, .checksumAcrossStages]
        for finding in audit.findings {
            if checksumCodes.contains(finding.code), !finding.versions.isEmpty, Set(finding.versions).isSubset(of: explained) { continue }
            guard finding.code == .checksumAcrossStages else {
                findings.append(finding)
                continue
            }
            var marked = finding.with(severity: .warning)
            marked.message += " (unverified for SwiftData: whether its migration manager checks stages against each other is open, §11.8)"
            findings.append(marked)
        }
        if !sharedAt.isEmpty {
            open.append("stages meeting at \(sharedAt.abbreviated.joined(separator: ", ")) list each shared schema once, where Core Data allows it (how SwiftData avoids listing it twice, and whether its manager checks stages against each other, are open, §11.7, §11.8)")
        }
        if !open.isEmpty {
            findings.append(.unverifiedSwiftDataRule("plan '\(plan.name)' is translated into Core Data's stages on rules the SwiftData reference leaves open: "
                                                     + open.joined(separator: "; "), at: planAt, versions: []))
        }
        return (findings, containerFails ? nil : audit.starts)
    }
}

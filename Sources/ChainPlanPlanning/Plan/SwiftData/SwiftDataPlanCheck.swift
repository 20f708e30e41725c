import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import ChainPlanSwiftSource

/// A `SchemaMigrationPlan` checked as SwiftData and Core Data run it (reference swiftdata §7.1,
/// core-data-internals §6.1): each stage's schemas are found among the plan's `schemas` by
/// `versionIdentifier` (CP607 when none has it, CP608 when `toVersion` is the earlier, CP609
/// when two schemas share one), then the stages, translated into Core Data's, go through the
/// stage audit and every start's simulation that `chainplan stage --check` runs.
///
/// Translation: `.lightweight(A, C)` lists the checksums of the plan's schemas from A to C;
/// `.custom(A, B)` is a custom stage from A's checksum to B's. A schema where one stage ends and
/// the next begins is listed once, where Core Data's stage rules allow it: consecutive
/// lightweight stages merge (Core Data runs them as one jump either way, §6.1 fact 4); beside a
/// custom stage, the lightweight stage drops it. How SwiftData lists them, and whether its
/// manager checks stages against each other, are [open] (§11.7, §11.8): a plan that relies on
/// this gets a CP611 note.
package enum SwiftDataPlanCheck {
    /// Every finding on `chain`'s plan; none without a plan.
    package static func findings(_ chain: SwiftDataChain) -> [Diagnostic] {
        let hashes = chain.bundle.versionHashes(withProperties: false)
        var byVersion: [String: VersionIdentity] = [:]
        for version in hashes {
            guard let model = version.hashes else { continue }
            byVersion[version.version] = VersionIdentity(checksum: model.checksum, entityHashes: model.entities.mapValues { $0.base64EncodedString() })
        }
        let versions = Dictionary(chain.project.versions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let models = Dictionary(chain.bundle.versions.compactMap { version in version.model.map { (version.name, $0) } }, uniquingKeysWith: { first, _ in first })
        guard let plan = chain.plan else {
            return DuplicateSchemaChecksumCheck.findings(order: chain.bundle.versionNames, checksums: byVersion.mapValues(\.checksum),
                                                         versions: versions, models: models, together: { _, _ in nil })
        }
        let planAt = plan.location ?? SourceLocation(file: chain.bundle.path)
        let identifier = Dictionary(chain.project.versions.compactMap { version in version.identifier.map { (version.name, $0) } },
                                    uniquingKeysWith: { first, _ in first })
        var findings: [Diagnostic] = []
        // The first listed schema of each version: the one a stage's lookup can reach.
        var positionOfVersion: [String: Int] = [:]
        for (position, schema) in plan.schemas.enumerated() {
            guard let version = identifier[schema] else { continue }
            if let first = positionOfVersion[version] {
                let at = position < plan.schemaLocations.count ? plan.schemaLocations[position] : nil
                findings.append(.duplicateSchemaVersion(schema, first: plan.schemas[first], identifier: version, plan: plan.name, at: at ?? planAt))
            } else {
                positionOfVersion[version] = position
            }
        }
        findings += ContainerSchemaCheck.findings(chain.project.containers, plan: plan, checksums: byVersion.mapValues(\.checksum))
        guard !plan.stages.isEmpty else {
            return findings + DuplicateSchemaChecksumCheck.findings(order: plan.schemas, checksums: byVersion.mapValues(\.checksum),
                                                                    versions: versions, models: models, together: { _, _ in nil })
        }

        var stages: [RuntimeStage] = []
        var locations: [SourceLocation] = []
        var open: [String] = []
        var sharedAt: [String] = []
        // Each stage as written: the schemas SwiftData lists in it, and where it is written.
        var written: [(members: Set<String>, location: SourceLocation)] = []
        for stage in plan.stages {
            let at = stage.location ?? planAt
            guard let fromVersion = identifier[stage.from], let toVersion = identifier[stage.to] else { continue } // CP602 says why
            guard let from = positionOfVersion[fromVersion] else {
                findings.append(.stageSchemaNotInPlan(stage.from, identifier: fromVersion, plan: plan.name, at: at))
                continue
            }
            guard let to = positionOfVersion[toVersion] else {
                findings.append(.stageSchemaNotInPlan(stage.to, identifier: toVersion, plan: plan.name, at: at))
                continue
            }
            if VersionOrder.areInIncreasingOrder(toVersion, fromVersion) {
                findings.append(.backwardMigrationStage(from: (stage.from, fromVersion), to: (stage.to, toVersion), at: at))
                continue
            }
            written.append((Set(stage.kind == .custom || to < from ? [plan.schemas[from], plan.schemas[to]] : Array(plan.schemas[from...to])), at))
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
                }
            }
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
        // Schemas with one checksum: an error where one stage as written holds both (CP610 then
        // stands for the stage findings this one cause makes: CP501, CP502, CP503).
        let duplicates = DuplicateSchemaChecksumCheck.findings(order: plan.schemas, checksums: byVersion.mapValues(\.checksum),
                                                               versions: versions, models: models) { a, b in
            written.first { $0.members.contains(a) && $0.members.contains(b) }?.location
        }
        findings += duplicates
        let explained = Set(duplicates.filter { $0.severity == .error }.flatMap(\.versions))
        // Keys: each schema's checksum. Without every listed schema's checksum the stages cannot
        // be run (the reader's CP602/CP603 say why a model is missing).
        // A stage SwiftData refuses (CP607, CP608) fails the container before any stage runs.
        let refused = findings.contains { $0.code == .stageSchemaNotInPlan || $0.code == .backwardMigrationStage }
        guard !refused, plan.schemas.allSatisfy({ byVersion[$0] != nil }), !stages.isEmpty else { return findings }
        let identities = VersionIdentities(byVersion: byVersion, source: "\(chain.bundle.path) (computed)")
        let keyed = stages.map { stage in
            RuntimeStage(kind: stage.kind, keys: stage.keys.compactMap { byVersion[$0]?.checksum }, hasHandlers: stage.hasHandlers)
        }
        let audit = StageListAudit.run(keyed, locations: locations, file: planAt.file,
                                       input: StageListAudit.Input(order: plan.schemas, identities: identities, bundle: chain.bundle),
                                       location: planAt)
        findings += audit.findings.filter { finding in
            !([.duplicateChecksumInStage, .checksumAcrossStages, .equalCustomEndpoints].contains(finding.code) && !finding.versions.isEmpty
              && Set(finding.versions).isSubset(of: explained))
        }
        if !sharedAt.isEmpty {
            open.append("stages meeting at \(sharedAt.abbreviated.joined(separator: ", ")) list each shared schema once, where Core Data allows it (how SwiftData avoids listing it twice, and whether its manager checks stages against each other, are open, §11.7, §11.8)")
        }
        if !open.isEmpty {
            findings.append(.unverifiedSwiftDataRule("plan '\(plan.name)' is translated into Core Data's stages on rules the SwiftData reference leaves open: "
                                                     + open.joined(separator: "; "), at: planAt, versions: []))
        }
        return findings
    }
}

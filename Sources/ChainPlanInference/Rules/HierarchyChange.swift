import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP205 HierarchyChange: an entity hierarchy changes (outcome unverified).
    package static let hierarchyChange = DiagnosticCode(
        "CP205", name: "HierarchyChange", severity: .warning,
        summary: "An entity hierarchy changes (outcome unverified)",
        help: "An entity changes its parent or its abstract flag, or separate hierarchies are merged. Core Data's builder does not examine hierarchies and infers the step, but how the rows move between tables is not verified, and Apple documents hierarchy merges as unsupported. Test the migration on a real store.",
        examples: [
            .versions("two separate entities get a common parent", versions: [
                #"<entity name="Car"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity><entity name="Boat"><attribute name="keel" optional="YES" attributeType="Integer 16"/></entity>"#,
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity><entity name="Boat" parentEntity="Vehicle"><attribute name="keel" optional="YES" attributeType="Integer 16"/></entity>"#,
            ], expected: 1),
            .versions("the hierarchy is unchanged", versions: [
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 16"/></entity>"#,
                #"<entity name="Vehicle" isAbstract="YES"/><entity name="Car" parentEntity="Vehicle"><attribute name="wheels" optional="YES" attributeType="Integer 32"/></entity>"#,
            ], expected: 0),
        ])
}

extension InferenceRules {
    /// §4.3: the builder never examines parents or abstract flags, so a hierarchy change infers;
    /// Apple documents hierarchy merges as unsupported and what the SQL does is [open].
    package static let hierarchyChange = InferenceRule(
        id: "hierarchy-change",
        checks: "An entity changes its parent or becomes abstract or concrete (a hierarchy merge included): the builder does not "
            + "check hierarchies and infers the step, but how the rows are moved is unverified (Apple documents merges as unsupported)",
        basis: .unverified, code: .hierarchyChange,
        examples: [
            example("two separate entities get a common parent",
                    entity("Car", attribute("wheels", "Integer 16")) + entity("Boat", attribute("keel", "Integer 16")),
                    entity("Vehicle", "", "isAbstract=\"YES\"") + entity("Car", attribute("wheels", "Integer 16"), "parentEntity=\"Vehicle\"")
                       + entity("Boat", attribute("keel", "Integer 16"), "parentEntity=\"Vehicle\""), .inferred),
            example("an entity becomes abstract", entity("Car", attribute("wheels", "Integer 16")),
                    entity("Car", attribute("wheels", "Integer 16"), "isAbstract=\"YES\""), .inferred),
            example("the hierarchy is unchanged",
                    entity("Vehicle") + entity("Car", attribute("wheels", "Integer 16"), "parentEntity=\"Vehicle\""),
                    entity("Vehicle") + entity("Car", attribute("wheels", "Integer 32"), "parentEntity=\"Vehicle\""),
                    .inferred, fires: false),
        ])
}

extension InferenceRules {
    /// A matched entity whose parent is not the entity its old parent's rows go to (a merge's
    /// members are reported once, by `hierarchyMerges`, under no code of their own).
    static func parentChange(_ pair: EntityPair) -> InferenceFindings {
        guard pair.parentGoesTo != pair.destinationParent || (pair.sourceParent == nil) != (pair.destinationParent == nil) else { return [] }
        let name = pair.destination.entity.name
        let from = pair.sourceParent.map { "'\($0)'" } ?? "none"
        let to = pair.destinationParent.map { "'\($0)'" } ?? "none"
        return [hierarchyChange.change(
            .parentChanged, entity: name,
            detail: "entity '\(name)' changes parent from \(from) to \(to): inferred (the builder does not check hierarchies), "
                + "but how its rows are moved is unverified",
            verdict: .inferable, code: pair.inMerge ? .some(nil) : nil, location: pair.location)]
    }

    /// A matched entity that becomes abstract or concrete.
    static func abstractChange(_ pair: EntityPair) -> InferenceFindings {
        let isAbstract = pair.destination.entity.isAbstract
        guard pair.source.entity.isAbstract != isAbstract else { return [] }
        let name = pair.destination.entity.name
        return [hierarchyChange.change(
            .abstractChanged, entity: name,
            detail: "entity '\(name)' becomes \(isAbstract ? "abstract" : "concrete"): inferred (the builder ignores the flag), "
                + "but what happens to \(isAbstract ? "its own rows" : "the rows") is unverified",
            verdict: .inferable, location: pair.location)]
    }

    /// Matched entities (source index, destination index) from separate source hierarchies that
    /// share a destination root: one finding per merge, and the destination entities involved
    /// (their own parent changes raise no second finding).
    static func hierarchyMerges(_ matches: [(Int, Int)], source: ResolvedView, destination: ResolvedView,
                                files: StepFiles) -> (findings: InferenceFindings, involved: Set<String>) {
        // Every destination entity alone in its hierarchy, and matched at most once: no merge.
        if destination.isFlat { return ([], []) }
        var sourceRootsByDestinationRoot: [String: Set<String>] = [:]
        var members: [String: [String]] = [:]
        for (s, d) in matches {
            sourceRootsByDestinationRoot[destination.entities[d].root, default: []].insert(source.entities[s].root)
            members[destination.entities[d].root, default: []].append(destination.entities[d].entity.name)
        }
        var findings: InferenceFindings = []
        var involved: Set<String> = []
        for (root, sourceRoots) in sourceRootsByDestinationRoot.sorted(by: { $0.key < $1.key }) where sourceRoots.count > 1 {
            let list = sourceRoots.sorted().quotedList
            involved.formUnion(members[root] ?? [])
            let rootEntity = destination.entity(root)?.entity
            findings.changes.append(hierarchyChange.change(
                .hierarchyMerged, entity: root,
                detail: "entities from separate hierarchies (roots \(list)) now share the root '\(root)': the builder infers it, "
                    + "but Apple documents merges as unsupported and the outcome is unverified",
                verdict: .inferable, location: files.destination(rootEntity?.line, rootEntity?.column)))
        }
        return (findings, involved)
    }
}

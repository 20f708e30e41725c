import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP201 NotInferable: a step cannot be inferred and has no mapping model.
    ///
    /// Raised by the inference rules below, external-storage and to-many-to-to-one, for a step no mapping model covers
    /// (`StepClassifier.findings`: any other refusal without a code of its own too), and for a stage of a stage plan (`stageNotInferable`, below).
    package static let notInferable = DiagnosticCode(
        "CP201", name: "NotInferable", severity: .error,
        summary: "A step cannot be inferred and has no mapping model",
        help: "Core Data's mapping builder refuses this step (134190; the app fails with 134140) and no mapping model covers it: a to-many relationship becomes to-one, or external storage is turned off. The finding names the cause. Add a mapping model for the step, or split it into inferable steps.",
        examples: [
            .versions("a to-many relationship becomes to-one, no mapping model", versions: [RuleExampleFixtures.toManyTags, RuleExampleFixtures.toOneTags], expected: 1),
            .versions("the same step with a mapping model", versions: [RuleExampleFixtures.toManyTags, RuleExampleFixtures.toOneTags], mappingModelOnFirstStep: true, expected: 0),
        ])
}
extension InferenceRules {
    /// §4.2: external binary storage can be turned on by inference, not off.
    package static let externalStorage = InferenceRule(
        id: "external-storage",
        checks: "A matched attribute's external binary storage: off → on infers; on → off fails with 134190 "
            + "\"Unable to use inferred mapping to move external reference into store.\"",
        basis: .coreDataBuilder, code: .notInferable,
        examples: [
            example("turned off", entity("Photo", attribute("data", "Binary", "optional=\"YES\" allowsExternalBinaryDataStorage=\"YES\"")),
                    entity("Photo", attribute("data", "Binary")), .refused),
            example("turned on", entity("Photo", attribute("data", "Binary")),
                    entity("Photo", attribute("data", "Binary", "optional=\"YES\" allowsExternalBinaryDataStorage=\"YES\"")), .inferred),
        ])
}
extension InferenceRules {
    /// §4.2, matched relationships: the builder refuses to map a to-many onto a to-one.
    package static let toManyToToOne = InferenceRule(
        id: "to-many-to-to-one",
        checks: "A matched relationship goes from to-many to to-one: the builder fails with 134190 "
            + "\"Can not map from a to-many to a to-one relationship\"",
        basis: .coreDataBuilder, code: .notInferable,
        examples: [
            example("to-many becomes to-one", entity("Note", toMany("tags", "Tag")) + entity("Tag"),
                    entity("Note", toOne("tags", "Tag")) + entity("Tag"), .refused),
            example("to-one becomes to-many", entity("Note", toOne("tags", "Tag")) + entity("Tag"),
                    entity("Note", toMany("tags", "Tag")) + entity("Tag"), .inferred, fires: false),
        ])
}

extension InferenceRules {
    /// A matched attribute's external binary storage changes (under the transformation key the
    /// key's own rule decides): into external storage is inferred; out of it the builder refuses.
    static func externalStorageChange(_ pair: AttributePair) -> InferenceFindings {
        let (a, b) = (pair.source, pair.destination)
        guard !allowsTypeTransformation(b), a.allowsExternalBinaryDataStorage != b.allowsExternalBinaryDataStorage else { return [] }
        let into = b.allowsExternalBinaryDataStorage
        return [externalStorage.change(
            .externalStorageChanged, entity: pair.entity, property: b.name,
            detail: into ? "attribute \(pair.label) moves to external storage"
                : "attribute \(pair.label) stops using external storage: Core Data refuses to infer the mapping (134190 \"Unable to use "
                    + "inferred mapping to move external reference into store.\"; the app fails with 134140)",
            verdict: into ? .inferable : .blocksInference, code: into ? .some(nil) : nil, location: pair.location)]
    }

    /// A matched relationship goes from to-many to to-one: the builder refuses.
    static func toManyBecomesToOne(_ pair: RelationshipPair) -> InferenceFindings {
        guard pair.source.isToMany, !pair.destination.isToMany else { return [] }
        return [toManyToToOne.change(
            .cardinalityChanged, entity: pair.entity, property: pair.destination.name,
            detail: "relationship \(pair.label) changes from to-many to to-one: Core Data refuses to infer the mapping (134190 \"Can not map "
                + "from a to-many to a to-one relationship\"; the app fails with 134140)",
            verdict: .blocksInference, location: pair.location)]
    }
}

extension Diagnostic {
    /// The finding for a stage `from` → `to` of a stage plan that cannot migrate (`why`: the
    /// step's blocking changes, or that a version cannot be read).
    package static func stageNotInferable(from: String, to: String, why: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.notInferable, "the stage '\(from)' → '\(to)' cannot migrate: \(why); add a mapping model, or decompose the step into inferable steps with the data moved in handlers (expand → copy → contract)",
                   at: location, versions: [from, to])
    }
}

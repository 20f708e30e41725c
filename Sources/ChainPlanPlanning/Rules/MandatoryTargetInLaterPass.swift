import ChainPlanCore

extension DiagnosticCode {
    /// CP703 MandatoryTargetInLaterPass: a mandatory relationship's target is created by a later pass.
    package static let mandatoryTargetInLaterPass = DiagnosticCode(
        "CP703", name: "MandatoryTargetInLaterPass", severity: .error,
        summary: "A mandatory relationship's target is created by a later pass",
        help: "Each pass is one migrateStore call that validates its objects before saving, and associations do not cross calls: a required relationship (or one with a minimum count) whose target does not exist yet fails validation. Create the target in the same or an earlier pass; mutually dependent entities share a pass.",
        examples: [
            .project("Note requires its Folder, which the later pass creates", files: RuleExampleFixtures.project([RuleExampleFixtures.noteInFolder(required: true, uniqueName: true), RuleExampleFixtures.noteInFolder(required: true, uniqueName: true)])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Folder", "Folder")])],
                expected: 1),
            .project("Folder in the first pass", files: RuleExampleFixtures.project([RuleExampleFixtures.noteInFolder(required: true, uniqueName: true), RuleExampleFixtures.noteInFolder(required: true, uniqueName: true)])
                + [RuleExampleFixtures.passMappingModel("StepOne", from: "V1", to: "V2", [("Folder", "Folder")]), RuleExampleFixtures.passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 0),
        ])
}

/// CP703: a pass creates objects whose mandatory relationship (or one with a minimum count)
/// targets an entity first created by a later pass: the pass's validation stage fails
/// (1560/1570, §8.1), because associations do not cross `migrateStore` calls (§8.3).
///
/// Examples (InputExamples runs them): `StepOne` maps `Note` whose required to-one `folder`
/// targets `Folder`, mapped by `StepTwo` → one finding; the two mapping models swapped
/// (`Folder` first) → none.
enum MandatoryTargetOrderCheck {
    static func check(_ set: PassSet) -> [Diagnostic] {
        let created = set.firstCreated
        let graph = PassGraph(destination: set.destination, mappings: set.passes.flatMap { $0 })
        var findings: [Diagnostic] = []
        for (from, targets) in graph.mandatory.enumerated() {
            let entity = graph.created[from]
            guard let owner = created[entity] else { continue }
            var reported: Set<Int> = []
            for to in targets where reported.insert(to).inserted {
                let target = graph.created[to]
                guard let arrives = created[target], arrives.pass > owner.pass else { continue }
                let relationship = graph.links.first { $0.from == from && $0.to == to }?.relationship ?? "?"
                findings.append(Diagnostic(.mandatoryTargetInLaterPass,
                    "'\(entity)' (pass \(owner.pass + 1), '\(set.models[owner.pass].name)') requires '\(relationship)' to '\(target)', which pass \(arrives.pass + 1) ('\(set.models[arrives.pass].name)') creates: validation fails; move '\(target)' to the same or an earlier pass",
                    at: owner.mapping.location, versions: set.versions))
            }
        }
        return findings
    }
}

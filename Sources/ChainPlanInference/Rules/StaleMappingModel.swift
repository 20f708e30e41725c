import ChainPlanCore
import ChainPlanHashing
import Foundation
import ChainPlanReaders

extension DiagnosticCode {
    /// CP208 StaleMappingModel: a mapping model's embedded model no longer equals the version it names.
    ///
    /// Raised when mapping models are matched to steps (`MappingMatcher.stale`, below) and for a spec's `mappings` entry whose model does not match its step (`assignedMappingModelMismatch`).
    package static let staleMappingModel = DiagnosticCode(
        "CP208", name: "StaleMappingModel", severity: .warning,
        summary: "A mapping model's embedded model no longer equals the version it names",
        help: "The model was edited after the mapping model was made (its embedded snapshot no longer equals the version), or the spec's `mappings` assigns it to a step it was not made for. Core Data matches mapping models by entity hashes and will silently not use it. Recreate the mapping model, or assign it to its own step.",
        examples: [
            .project("the spec assigns the V2 → V3 mapping model to V1 → V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithNumericTitle],
                extra: #", "mappings": {"V1 -> V2": "V2ToV3.xcmappingmodel"}"#)
                + [RuleExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V2", to: "V3"))], expected: 1),
            .project("assigned to the step it was made for", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithNumericTitle],
                extra: #", "mappings": {"V2 -> V3": "V2ToV3.xcmappingmodel"}"#)
                + [RuleExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V2", to: "V3"))], expected: 0),
        ])
}

extension MappingMatcher {
    /// The finding for `mapping`, which names `from` → `to` but whose embedded models no longer
    /// match them (`differences`: what moved, the first few shown).
    static func stale(_ mapping: MappingModel, from: String, to: String, differences: [String]) -> Diagnostic {
        let shown = differences.prefix(differencesInMessage).joined(separator: "; ")
        let more = differences.count > differencesInMessage ? " (and \(differences.count - differencesInMessage) more)" : ""
        return Diagnostic(.staleMappingModel,
                          "mapping model '\(mapping.name)' names '\(from)' → '\(to)' but its embedded models no longer match: \(shown)\(more)",
                          at: SourceLocation(file: mapping.documentPath, line: mapping.line), versions: [from, to])
    }
}

extension Diagnostic {
    /// The finding for the mapping model at `path`, which the spec's `mappings` assign to `from`
    /// → `to` but which does not match those versions (`match`: what it matches instead, if anything).
    package static func assignedMappingModelMismatch(path: String, from: String, to: String, match: MappingMatch?,
                                                     at location: SourceLocation?) -> Diagnostic {
        let actual = match.map { match in
            let how = match.basis == .content ? "its embedded models match" : "it names"
            return " (\(how) '\(match.from)' → '\(match.to)'\(match.isStale ? ", and its embedded models are stale" : ""))"
        } ?? ""
        return Diagnostic(.staleMappingModel,
            "the mapping model '\(path)' assigned to '\(from)' → '\(to)' does not match those versions\(actual); Core Data will not use it for this step",
            at: location, versions: [from, to])
    }
}

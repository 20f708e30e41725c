import ChainPlanCore
/// Semantic checks of one model version, the ones momc would refuse: each rule in the file of its
/// code (`Rules/`): CP115 `duplicateNames`, CP116 `unknownEntityReferences`, CP117
/// `parentEntityCycles`, and an inheritance too large to resolve (CP114). Every finding is
/// reported, at the line of the offending element.
package enum ModelValidator {
    /// All findings for `model`, sorted; `file` is the display path, `version` the version name.
    package static func validate(_ model: ObjectModel, file: String, version: String? = nil) -> [Diagnostic] {
        // Resolution is only needed when some entity has a parent.
        let check = Check(model: model, file: file, versions: version.map { [$0] } ?? [],
                          resolved: model.entities.contains { $0.parentEntity != nil } ? model.resolved() : nil)
        var diagnostics = check.duplicateNames() + check.unknownEntityReferences() + check.parentEntityCycles()
        if let resolved = check.resolved, !resolved.isComplete {
            diagnostics.append(check.finding(.malformedModelXML, "the model's inheritance is too large to resolve (over \(ResolvedModel.defaultBudget) inherited entries)",
                                             line: nil))
        }
        return diagnostics.sorted()
    }

    /// One version under check: what every rule reads, and how it locates a finding.
    struct Check {
        var model: ObjectModel
        var file: String
        var versions: [String]
        var resolved: ResolvedModel?

        func finding(_ code: DiagnosticCode, _ message: String, line: Int?, column: Int? = nil) -> Diagnostic {
            Diagnostic(code, message, at: SourceLocation(file: file, line: line, column: line == nil ? nil : column), versions: versions)
        }

        /// ` (line N)`, or nothing when the line is unknown.
        static func lineText(_ line: Int?) -> String { line.map { " (line \($0))" } ?? "" }

        /// The first line of each entity name, for name look-ups.
        var firstEntityLines: [String: Int?] {
            var first: [String: Int?] = [:]
            for entity in model.entities where first[entity.name] == nil { first[entity.name] = entity.line }
            return first
        }
    }
}

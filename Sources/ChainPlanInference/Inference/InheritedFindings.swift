import ChainPlanCore
/// One cause, one finding: a change to an inherited property.
///
/// Core Data migrates every entity with all its properties, inherited ones included, so a step's
/// `changes` list a property declared on a parent once for the parent and once for every
/// subentity that inherits it (each is a column of its own table, or of the shared one). They
/// have one cause: the declaration on the parent. The findings name it once, at the declaring
/// entity, and say which subentities inherit it; `changes` keep every entity.
///
///     'Message' declares 'isEncrypted'; 'TextMessage' and 'ImageMessage' inherit it; it is removed
///     → one CP209 "attribute 'Message.isEncrypted' is removed; its values are deleted
///       (inherited by 2 subentities: 'ImageMessage', 'TextMessage')"
extension StepClassifier {
    /// `step` with the changes its findings are made from: changes to one inherited property
    /// (same kind, property, code, verdict and declaration line) folded into the declaring
    /// entity's change. Changes without a code, a property or a location are kept as they are.
    package func foldingInheritedChanges(_ step: StepClassification, from: String, to: String) -> StepClassification {
        let source = resolved[from]?.view
        let destination = resolved[to]?.view
        struct Key: Hashable {
            var kind: ModelChange.Kind, property: String, location: SourceLocation, code: DiagnosticCode, verdict: ChangeVerdict
        }
        var groups: [Key: [Int]] = [:]
        for (index, change) in step.changes.enumerated() {
            guard let property = change.property, let location = change.location, let code = change.code else { continue }
            groups[Key(kind: change.kind, property: property, location: location, code: code, verdict: change.verdict), default: []].append(index)
        }
        var dropped: Set<Int> = []
        var folded = step.changes
        for members in groups.values where members.count > 1 {
            let entities = members.map { step.changes[$0].entity }
            // The declaring entity is the one every other member descends from, in either model.
            guard let declaring = members.first(where: { candidate in
                let name = step.changes[candidate].entity
                return entities.allSatisfy { other in
                    other == name || source?.isKind(other, of: name) == true || destination?.isKind(other, of: name) == true
                }
            }) else { continue }
            let heirs = Array(Set(entities.filter { $0 != step.changes[declaring].entity })).sorted()
            guard !heirs.isEmpty else { continue }
            let shown = heirs.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
            let more = heirs.count > 3 ? " and \(heirs.count - 3) more" : ""
            folded[declaring].detail += " (inherited by \(heirs.count) subentit\(heirs.count == 1 ? "y" : "ies"): \(shown)\(more))"
            for member in members where member != declaring { dropped.insert(member) }
        }
        guard !dropped.isEmpty else { return step }
        var copy = step
        copy.changes = folded.enumerated().filter { !dropped.contains($0.offset) }.map(\.element)
        return copy
    }
}

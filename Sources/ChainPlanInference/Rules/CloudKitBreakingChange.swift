import ChainPlanCore
import ChainPlanReaders

extension DiagnosticCode {
    /// CP213 CloudKitBreakingChange: a step removes, renames, retypes or makes mandatory a field
    /// of an entity mirrored to CloudKit.
    ///
    /// Raised for each chain step by `CloudKitBreakingChange.findings` (below), called where a
    /// chain's steps are classified and by `explain`.
    package static let cloudKitBreakingChange = DiagnosticCode(
        "CP213", name: "CloudKitBreakingChange", severity: .error,
        summary: "A step removes, renames, retypes or makes mandatory a field of an entity mirrored to CloudKit",
        help: "Entities of the Default configuration marked \"Used with CloudKit\" (`usedWithCloudKit=\"YES\"` on `<model>`), or of a configuration marked so, are mirrored by NSPersistentCloudKitContainer to record types named `CD_<Entity>`, whose fields carry the property names. Once that schema is deployed to CloudKit's production environment it only accepts additive changes: Apple's \"Creating a Core Data Model for CloudKit\" says a record type cannot be deleted and existing attributes cannot be modified after the schema is promoted to production, and WWDC22's \"Evolve your Core Data schema\" gives the same rule for model versions. This is CloudKit's rule, not Core Data's: the local store may still migrate. A removed or renamed entity or property leaves its record type or field in production, where earlier app versions on the user's other devices keep writing it and this version never reads it; a changed type cannot be deployed (the mirror's exports of the field are rejected); a property made mandatory breaks the import of records written without it. Adding entities and optional (or defaulted) properties is fine. Keep the old field and add a new one, or move to a new CloudKit container.",
        examples: [
            .versions("a mirrored attribute is removed", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>"#,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>"#,
            ], expected: 1),
            .versions("a mirrored attribute changes type", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>"#,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>"#,
            ], expected: 1),
            .versions("an optional attribute is added", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>"#,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration>"#,
            ], expected: 0),
            .versions("an entity of a local configuration loses an attribute", versions: [
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Draft"><attribute name="text" optional="YES" attributeType="String"/></entity><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration><configuration name="Local"><memberEntity name="Draft"/></configuration>"#,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Draft"/><configuration name="Cloud" usedWithCloudKit="YES"><memberEntity name="Note"/></configuration><configuration name="Local"><memberEntity name="Draft"/></configuration>"#,
            ], expected: 0),
        ])
}

/// CloudKit's production schema rule over one step: what the step removes, renames, retypes or
/// makes mandatory among the entities its source mirrors to CloudKit. Record types and fields
/// are matched by name, as the mirror names them (renaming identifiers do not carry a field).
package enum CloudKitBreakingChange {
    /// One finding per breaking change of the step `from` → `to`, located in the destination's
    /// `contents` (the source's for what is gone).
    package static func findings(source: ObjectModel, destination: ObjectModel, from: String, to: String,
                                 sourceFile: String?, destinationFile: String?) -> [Diagnostic] {
        let mirrored = source.cloudKitEntities
        guard !mirrored.isEmpty else { return [] }
        let before = ResolvedModel(source)
        let after = ResolvedModel(destination)
        let files = StepFiles(source: sourceFile, destination: destinationFile)
        var findings: [Diagnostic] = []
        func add(_ what: String, _ consequence: String, at location: SourceLocation?) {
            findings.append(Diagnostic(.cloudKitBreakingChange,
                                       "\(what) ('\(from)' → '\(to)'), but the entity is mirrored to CloudKit, whose production schema only accepts additive changes: \(consequence)",
                                       at: location ?? SourceLocation(file: destinationFile ?? sourceFile ?? ""), versions: [from, to]))
        }
        for old in before.entities where mirrored.contains(old.name) {
            guard let new = after.entity(named: old.name) else {
                let renamed = after.entities.first { $0.entity.renamingIdentifier == old.name }.map { " (renamed to '\($0.name)')" } ?? ""
                add("entity '\(old.name)' is removed\(renamed)",
                    "the record type 'CD_\(old.name)' stays in production and earlier app versions on the user's other devices keep syncing it, unseen by this version",
                    at: files.source(old.entity.line, old.entity.column))
                continue
            }
            let fields = Dictionary(Field.stored(in: new).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            // Each property once, in the entity that declares it (a subentity's inherited copy is the same field).
            for field in Field.stored(in: old) where old.inheritedFrom[field.name] == nil {
                let label = "\(field.kind) '\(old.name).\(field.name)'"
                guard let now = fields[field.name] else {
                    let renamed = (new.attributes.first { $0.renamingIdentifier == field.name }?.name
                        ?? new.relationships.first { $0.renamingIdentifier == field.name }?.name).map { " (renamed to '\($0)')" } ?? ""
                    add("\(label) is removed\(renamed)",
                        "the field stays in production, earlier app versions on the user's other devices keep writing it, and this version never reads it",
                        at: files.source(field.line, field.column))
                    continue
                }
                if now.kind != field.kind {
                    add("\(label) becomes \(now.kind == "attribute" ? "an attribute" : "a relationship")",
                        "a production field's type cannot change, so the mirror's exports of it are rejected", at: files.destination(now.line, now.column))
                } else if now.type != field.type, let before = field.type, let after = now.type {
                    add("\(label) changes type from \(before) to \(after)",
                        "a production field's type cannot change, so the mirror's exports of it are rejected", at: files.destination(now.line, now.column))
                } else if now.isMandatory, !field.isMandatory {
                    add("\(label) becomes mandatory",
                        "records written without it by earlier app versions fail validation when this version imports them",
                        at: files.destination(now.line, now.column))
                }
            }
        }
        return findings
    }
}

/// A stored property as the mirror sees it: a field by name, of a kind and (for an attribute) a type.
private struct Field {
    var kind: String
    var name: String
    /// The attribute type as Xcode names it; nil for a relationship.
    var type: String?
    var isMandatory: Bool
    var line: Int?
    var column: Int?

    /// The entity's stored (non-transient) attributes and relationships, inherited ones included.
    static func stored(in entity: ResolvedEntity) -> [Field] {
        entity.attributes.filter { !$0.isTransient }.map {
            Field(kind: "attribute", name: $0.name, type: $0.type.xmlValue, isMandatory: $0.isMandatory, line: $0.line, column: $0.column)
        } + entity.relationships.filter { !$0.isTransient }.map {
            Field(kind: "relationship", name: $0.name, type: nil, isMandatory: $0.isMandatory, line: $0.line, column: $0.column)
        }
    }
}

extension StepClassifier {
    /// CP213 for the step `from` → `to` of the classifier's bundle; none when either version
    /// cannot be read.
    package func cloudKitFindings(from: String, to: String) -> [Diagnostic] {
        guard let source = resolved[from], let destination = resolved[to],
              let old = source.version.model, let new = destination.version.model else { return [] }
        return CloudKitBreakingChange.findings(source: old, destination: new, from: from, to: to,
                                               sourceFile: source.version.path, destinationFile: destination.version.path)
    }
}

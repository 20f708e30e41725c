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
            let newAttributes = Dictionary(new.attributes.filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let newRelationships = Dictionary(new.relationships.filter { !$0.isTransient }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            func gone(_ kind: String, _ name: String, line: Int?, column: Int?) {
                let renamed = (new.attributes.first { $0.renamingIdentifier == name }?.name ?? new.relationships.first { $0.renamingIdentifier == name }?.name)
                    .map { " (renamed to '\($0)')" } ?? ""
                add("\(kind) '\(old.name).\(name)' is removed\(renamed)",
                    "the field stays in production, earlier app versions on the user's other devices keep writing it, and this version never reads it",
                    at: files.source(line, column))
            }
            // Each property once, in the entity that declares it (a subentity's inherited copy is the same field).
            for attribute in old.attributes where !attribute.isTransient && old.inheritedFrom[attribute.name] == nil {
                guard let now = newAttributes[attribute.name] else {
                    if let relationship = newRelationships[attribute.name] {
                        add("attribute '\(old.name).\(attribute.name)' becomes a relationship",
                            "a production field's type cannot change, so the mirror's exports of it are rejected",
                            at: files.destination(relationship.line, relationship.column))
                    } else {
                        gone("attribute", attribute.name, line: attribute.line, column: attribute.column)
                    }
                    continue
                }
                if now.type != attribute.type {
                    add("attribute '\(old.name).\(attribute.name)' changes type from \(attribute.type.xmlValue) to \(now.type.xmlValue)",
                        "a production field's type cannot change, so the mirror's exports of it are rejected",
                        at: files.destination(now.line, now.column))
                } else if attribute.isOptional, !now.isOptional {
                    add("attribute '\(old.name).\(attribute.name)' becomes mandatory",
                        "records written without it by earlier app versions fail validation when this version imports them",
                        at: files.destination(now.line, now.column))
                }
            }
            for relationship in old.relationships where !relationship.isTransient && old.inheritedFrom[relationship.name] == nil {
                guard let now = newRelationships[relationship.name] else {
                    if let attribute = newAttributes[relationship.name] {
                        add("relationship '\(old.name).\(relationship.name)' becomes an attribute",
                            "a production field's type cannot change, so the mirror's exports of it are rejected",
                            at: files.destination(attribute.line, attribute.column))
                    } else {
                        gone("relationship", relationship.name, line: relationship.line, column: relationship.column)
                    }
                    continue
                }
                if now.isMandatory, !relationship.isMandatory {
                    add("relationship '\(old.name).\(relationship.name)' becomes mandatory",
                        "records written without it by earlier app versions fail validation when this version imports them",
                        at: files.destination(now.line, now.column))
                }
            }
        }
        return findings
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

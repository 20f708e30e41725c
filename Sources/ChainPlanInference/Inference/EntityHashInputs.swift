/// What Core Data feeds into one entity's version hash (`shared/reference/core-data-internals.md`
/// §1.2–§1.5), as a comparable value: two versions need no migration exactly when their
/// dictionaries of these are equal (§1.7). Compared structurally, without computing SHA-256.
///
/// Included: name, abstract flag, parent (its own inputs are compared under its name), every
/// non-transient attribute and relationship, own and inherited, with name, optional flag and
/// modifier; an attribute's type and external storage; a relationship's destination name,
/// inverse name, counts (an absent `maxCount` is 1 on a to-one) and ordered flag; the entity's
/// modifier and its own uniqueness constraints. Everything else (renaming identifiers, delete
/// rules, defaults, userInfo, indexes, transient properties, class names) is left out, as Core
/// Data leaves it out. `preserveAfterDeletion` is not read from the XML yet.
struct EntityHashInputs: Hashable, Sendable {
    struct Property: Hashable, Sendable {
        enum Kind: Hashable, Sendable {
            case attribute(type: String, external: Bool)
            case derived(expression: String)
            case composite(elements: [Property])
            case relationship(destination: String, inverse: String, maxCount: Int, minCount: Int, ordered: Bool)
        }

        var name: String
        var optional: Bool
        var modifier: String
        var kind: Kind
    }

    var name: String
    var isAbstract: Bool
    var parent: String?
    var modifier: String
    var properties: [Property]
    var constraints: [String]

    init(_ entity: ResolvedEntityView, in view: ResolvedView) {
        name = entity.entity.name
        isAbstract = entity.entity.isAbstract
        parent = entity.entity.parentEntity.flatMap { view.byName[$0] != nil ? $0 : nil }
        modifier = entity.entity.versionHashModifier ?? ""
        var properties: [Property] = []
        for attribute in entity.attributes where !attribute.isTransient {
            properties.append(Self.property(attribute, in: view))
        }
        for relationship in entity.relationships where !relationship.isTransient {
            properties.append(Property(
                name: relationship.name, optional: relationship.isOptional, modifier: relationship.versionHashModifier ?? "",
                kind: .relationship(destination: relationship.destinationEntity ?? "", inverse: relationship.inverseName ?? "",
                                    maxCount: relationship.hashedMaxCount, minCount: relationship.minCount,
                                    ordered: relationship.isOrdered)))
        }
        properties.sort { $0.name < $1.name }
        self.properties = properties
        constraints = entity.entity.uniquenessConstraints.map { $0.joined(separator: ".") }.filter { !$0.isEmpty }.sorted()
    }

    static func property(_ attribute: Attribute, in view: ResolvedView) -> Property {
        let kind: Property.Kind
        if attribute.isDerived {
            kind = .derived(expression: attribute.derivationExpression ?? "")
        } else if attribute.type == .composite {
            kind = .composite(elements: view.elements(of: attribute).filter { !$0.isTransient }
                .map { property($0, in: view) }.sorted { $0.name < $1.name })
        } else {
            kind = .attribute(type: attribute.type.xmlValue, external: attribute.allowsExternalBinaryDataStorage)
        }
        return Property(name: attribute.name, optional: attribute.isOptional, modifier: attribute.versionHashModifier ?? "", kind: kind)
    }
}

extension Relationship {
    /// `maxCount` as hashed: an absent one is 0 (no limit) on a to-many and 1 on a to-one.
    var hashedMaxCount: Int { maxCount != 0 ? maxCount : (isToMany ? 0 : 1) }
}

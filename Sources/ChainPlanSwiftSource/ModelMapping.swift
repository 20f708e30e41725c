import ChainPlanCore
import ChainPlanReaders
import Foundation
import SwiftSyntax

/// One `@Model` class mapped to a Core Data entity by SwiftData's rules (reference §2–§5),
/// before the version it is in pairs its inverses.
struct MappedEntity {
    /// The entity, named by the class's simple name; relationships carry no inverse yet.
    var entity: Entity
    /// Relationship name → the qualified name of its destination class.
    var destinations: [String: String]
    /// Relationship name → the inverse `inverse:` names: destination class and property.
    var explicitInverses: [String: (type: String, property: String)]
    /// The qualified name of a `@Model` superclass, when it has one.
    var parent: String?
    /// Composite types its attributes use.
    var composites: [CompositeType]
    /// Causes that make a hash rest on an [open] rule.
    var unverified: [String]
    /// Why no entity can be built without a guess.
    var failure: String?
    /// Where each relationship is declared.
    var relationshipLocations: [String: ChainPlanCore.SourceLocation]
    /// Its `@Attribute(.codable)` properties' payloads, in declaration order.
    var codablePayloads: [CodablePayload] = []
}

/// Maps `@Model` classes to entities; keeps the findings it makes, each once.
struct ModelMapper {
    /// The declarations names resolve in.
    let index: DeclarationIndex
    /// The files read, by position (for locations).
    let files: [ParsedSwiftFile]
    /// Every finding made, each once.
    private(set) var findings: Set<Diagnostic> = []
    /// Entities already mapped, by qualified class name.
    private var cache: [String: MappedEntity] = [:]

    /// A mapper over `files` and their `index`.
    init(index: DeclarationIndex, files: [ParsedSwiftFile]) {
        self.index = index
        self.files = files
    }

    /// Records a finding (once, however many versions reach its declaration).
    mutating func note(_ diagnostic: Diagnostic) { findings.insert(diagnostic) }

    /// Where `node` of the `file`-th file starts.
    func location(_ node: some SyntaxProtocol, file: Int) -> ChainPlanCore.SourceLocation { files[file].location(of: node) }

    /// The entity of the `@Model` class `qualifiedName`, mapped once.
    mutating func entity(_ qualifiedName: String) -> MappedEntity {
        if let cached = cache[qualifiedName] { return cached }
        let mapped = map(qualifiedName)
        cache[qualifiedName] = mapped
        return mapped
    }

    // MARK: - Entities

    /// Maps the class `qualifiedName`: its superclass, stored properties and macros.
    private mutating func map(_ qualifiedName: String) -> MappedEntity {
        guard let type = index.types[qualifiedName], let node = type.node.as(ClassDeclSyntax.self) else {
            return MappedEntity(entity: Entity(name: qualifiedName), destinations: [:], explicitInverses: [:], parent: nil, composites: [],
                                unverified: [], failure: "'\(qualifiedName)' is not a class", relationshipLocations: [:])
        }
        var mapped = MappedEntity(entity: Entity(name: type.simpleName, representedClassName: qualifiedName),
                                  destinations: [:], explicitInverses: [:], parent: nil, composites: [], unverified: [], failure: nil,
                                  relationshipLocations: [:])
        let declared = location(node.name, file: type.file)
        mapped.entity.line = declared.line
        mapped.entity.column = declared.column
        let scope = type.bodyScope
        // The reader reports each #if once (CP602); here only the hashes are marked.
        if type.conditional != nil {
            mapped.unverified.append("\(type.simpleName): declared under an #if the stated configuration cannot decide; the first clause was read")
        }
        // A @Model superclass is the entity's superentity (iOS 26).
        for inherited in node.inheritanceClause?.inheritedTypes ?? [] {
            if case .declared(let parent) = index.resolve(inherited.type, in: Array(scope.dropFirst())), index.types[parent]?.isModel == true {
                mapped.parent = parent
                mapped.entity.parentEntity = index.types[parent]?.simpleName
                mapped.unverified.append("\(type.simpleName): superentity hashes have no ground truth yet [open, §11.13]")
            }
        }
        let (members, undecided) = index.activeMembers(node.memberBlock.members)
        if undecided {
            mapped.unverified.append("\(type.simpleName): properties under an #if the stated configuration cannot decide are left out")
        }
        for member in members {
            if let macro = member.decl.as(MacroExpansionDeclSyntax.self) {
                macroExpansion(macro, in: &mapped, file: type.file)
                continue
            }
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for property in StoredProperty.properties(of: variable) {
                self.property(property, of: type, scope: scope, into: &mapped)
            }
        }
        return mapped
    }

    /// `#Unique<T>([\.a, \.b], [\.c])` adds uniqueness constraints; `#Index` adds fetch indexes.
    private mutating func macroExpansion(_ macro: MacroExpansionDeclSyntax, in mapped: inout MappedEntity, file: Int) {
        let name = macro.macroName.text
        guard name == "Unique" || name == "Index" else { return }
        var lists: [[String]] = []
        for argument in macro.arguments {
            guard let array = argument.expression.as(ArrayExprSyntax.self) else {
                note(.unresolvedSwiftName("#\(name) argument '\(argument.expression.trimmedText)' is not an array of key paths",
                                          at: location(argument, file: file)))
                mapped.failure = mapped.failure ?? "#\(name) of '\(mapped.entity.name)' cannot be read"
                continue
            }
            var names: [String] = []
            for element in array.elements {
                guard let keyPath = element.expression.as(KeyPathExprSyntax.self), let property = Self.propertyName(keyPath) else {
                    note(.unresolvedSwiftName("#\(name) entry '\(element.expression.trimmedText)' is not a key path to a property",
                                              at: location(element, file: file)))
                    mapped.failure = mapped.failure ?? "#\(name) of '\(mapped.entity.name)' cannot be read"
                    continue
                }
                names.append(property)
            }
            lists.append(names)
        }
        if name == "Unique" {
            mapped.entity.uniquenessConstraints += lists
            if lists.contains(where: { $0.count > 1 }) {
                mapped.unverified.append("\(mapped.entity.name): order of names inside a #Unique constraint [open, CDI §1.5]")
            }
        } else {
            for (position, list) in lists.enumerated() {
                mapped.entity.fetchIndexes.append(FetchIndex(name: "index\(position + 1)", elements: list.map { FetchIndex.Element(property: $0) }))
            }
        }
    }

    /// The property a single-component key path names (`\.a`, `\Trip.a`).
    static func propertyName(_ keyPath: KeyPathExprSyntax) -> String? {
        guard keyPath.components.count == 1, let component = keyPath.components.first,
              case .property(let property) = component.component else { return nil }
        return property.declName.baseName.text
    }

    // MARK: - Properties

    /// A property's default as Core Data's `defaultValueString` shows it: a plain string
    /// literal's text without quotes, any other initializer as written (not hashed either way).
    static func defaultText(_ initializer: ExprSyntax?) -> String? {
        guard let initializer else { return nil }
        if let literal = initializer.as(StringLiteralExprSyntax.self), literal.segments.count == 1,
           let segment = literal.segments.first?.as(StringSegmentSyntax.self) {
            return segment.content.text
        }
        return initializer.trimmedText
    }

    /// Maps one stored property to an attribute or a relationship of `mapped`.
    private mutating func property(_ property: StoredProperty, of type: DeclarationIndex.TypeDecl, scope: DeclarationIndex.Scope,
                                   into mapped: inout MappedEntity) {
        let file = type.file
        let at = location(property.node, file: file)
        let entityName = type.simpleName
        let qualified = "\(entityName).\(property.name)"
        if let reason = property.unverified { mapped.unverified.append("\(qualified): \(reason) [open, §11.14]") }
        if property.name == "description" {
            note(.invalidSwiftDataModel("property '\(qualified)' is named 'description', which SwiftData refuses (a fatal error when the schema is built)", at: at))
            mapped.failure = mapped.failure ?? "'\(qualified)' is named 'description'"
            return
        }
        let options = AttributeOptions(property.attributes, mapper: &self, file: file, qualified: qualified)
        if let failure = options.failure { mapped.failure = mapped.failure ?? failure }
        mapped.unverified += options.unverified
        if let transformer = options.transformer {
            // `.transformable(by:)`: type 1800 whatever the value type (which may be another module's).
            var attribute = Self.attribute(property, type: .transformable, isOptional: property.type.map(Self.isOptionalSpelling) ?? false,
                                           options: options, at: at)
            attribute.valueTransformerName = transformer
            Self.add(attribute, unique: options.unique, to: &mapped)
            return
        }
        guard let swiftType = declaredType(of: property, scope: scope, file: file, qualified: qualified) else {
            mapped.failure = mapped.failure ?? "the type of '\(qualified)' cannot be read"
            return
        }
        if options.codable {
            codableAttribute(property, type: swiftType, options: options, entity: entityName, at: at, into: &mapped)
            return
        }
        if let unknown = swiftType.firstUnknown {
            note(.unresolvedSwiftName("type '\(unknown)' of '\(qualified)' cannot be resolved in the files read (another module's type, or a typealias cycle"
                                      + "\(index.moduleNameHint(for: unknown))); its Core Data type is unknown", at: at))
            mapped.failure = mapped.failure ?? "the type '\(unknown)' of '\(qualified)' is unknown"
            return
        }
        let (value, isOptional) = swiftType.withoutOptional
        // Relationships: a @Model class, or an array of one.
        if let (target, toMany) = relationshipTarget(value) {
            relationship(property, qualified: qualified, target: target, toMany: toMany, isOptional: isOptional, options: options,
                         scope: scope, at: at, file: file, into: &mapped)
            return
        }
        if let relationship = DeclarationIndex.attribute(property.attributes, named: "Relationship") {
            note(.invalidSwiftDataModel("@Relationship on '\(qualified)', whose type '\(swiftType)' is not a @Model class or an array of one",
                                        at: location(relationship, file: file)))
        }
        var attribute = Self.attribute(property, type: .undefined, isOptional: isOptional, options: options, at: at)
        switch attributeType(value, qualified: qualified, at: at, depth: 0) {
        case .failure(let failure):
            mapped.failure = mapped.failure ?? failure.reason
            return
        case .success(let (type, composites, caveats)):
            attribute.type = type
            if type == .composite, let composite = composites.first { attribute.compositeName = composite.name }
            for composite in composites where !mapped.composites.contains(where: { $0.name == composite.name }) {
                mapped.composites.append(composite)
            }
            mapped.unverified += caveats.map { "\(qualified): \($0)" }
        }
        Self.add(attribute, unique: options.unique, to: &mapped)
    }

    /// The attribute a stored property maps to, with its options (its type still to be decided
    /// by the caller's rule).
    private static func attribute(_ property: StoredProperty, type: AttributeType, isOptional: Bool, options: AttributeOptions,
                                  at: ChainPlanCore.SourceLocation) -> Attribute {
        var attribute = Attribute(name: property.name, type: type, isOptional: isOptional, isTransient: options.ephemeral,
                                  defaultValueString: defaultText(property.initializer),
                                  allowsExternalBinaryDataStorage: options.externalStorage,
                                  renamingIdentifier: options.originalName, versionHashModifier: options.hashModifier, line: at.line)
        attribute.column = at.column
        attribute.isPreservedAfterDeletion = options.preserveValueOnDeletion
        return attribute
    }

    /// Adds `attribute` to `mapped`, with its uniqueness constraint when `.unique`.
    private static func add(_ attribute: Attribute, unique: Bool, to mapped: inout MappedEntity) {
        mapped.entity.attributes.append(attribute)
        if unique { mapped.entity.uniquenessConstraints.append([attribute.name]) }
    }

    /// An `@Attribute(.codable)` property: SwiftData stores its value's Codable representation,
    /// which the model does not describe (reference §3, Apple's documentation), so its value type
    /// is not mapped and may be any type. Its Core Data type is open (§11.4): binary data here,
    /// marked unverified. The payload's shape is kept beside the model, for CP613.
    private mutating func codableAttribute(_ property: StoredProperty, type: SwiftType, options: AttributeOptions, entity: String,
                                           at: ChainPlanCore.SourceLocation, into mapped: inout MappedEntity) {
        let (value, isOptional) = type.withoutOptional
        Self.add(Self.attribute(property, type: .binary, isOptional: isOptional, options: options, at: at), unique: options.unique, to: &mapped)
        var declaredTypes: [String] = []
        let shape = payloadShape(of: value, prefix: "", depth: 0, declaredTypes: &declaredTypes)
        mapped.codablePayloads.append(CodablePayload(entity: entity, property: property.name, elements: [Self.spelled(value)] + shape,
                                                     declaredTypes: declaredTypes, location: at))
        mapped.unverified.append("\(entity).\(property.name): @Attribute(.codable) storage, taken as binary data [open, §11.4]")
    }

    /// A payload type's shape, as its Codable representation depends on it: each stored property
    /// of a declared struct or class as `prefix name: Type` (followed by its own type's shape
    /// under `prefix name.`), each case of an enum as `prefix case name(…) = raw`; containers by
    /// their element or value. Types the files do not declare have no shape here. Each declared
    /// type read is added to `declaredTypes` (once).
    private func payloadShape(of type: SwiftType, prefix: String, depth: Int, declaredTypes: inout [String]) -> [String] {
        guard depth < SwiftSourceLimits.maxTypeDepth else { return [] }
        switch type {
        case .optional(let element), .array(let element), .set(let element), .dictionary(_, let element):
            return payloadShape(of: element, prefix: prefix, depth: depth + 1, declaredTypes: &declaredTypes)
        case .builtin, .unknown:
            return []
        case .declared(let name):
            guard let declaration = index.types[name], let group = declaration.node.asProtocol(DeclGroupSyntax.self) else { return [] }
            if !declaredTypes.contains(name) { declaredTypes.append(name) }
            var shape: [String] = []
            for member in index.activeMembers(group.memberBlock.members).members {
                if let cases = member.decl.as(EnumCaseDeclSyntax.self) {
                    for element in cases.elements {
                        let raw = element.rawValue.map { " = \($0.value.trimmedText)" } ?? ""
                        shape.append("\(prefix)case \(element.name.text)\(element.parameterClause?.trimmedText ?? "")\(raw)")
                    }
                }
                guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
                for stored in StoredProperty.properties(of: variable, transientAttribute: nil) {
                    guard let written = stored.type else {
                        shape.append("\(prefix)\(stored.name) = \(stored.initializer?.trimmedText ?? "?")")
                        continue
                    }
                    let resolved = index.resolve(written, in: declaration.bodyScope)
                    shape.append("\(prefix)\(stored.name): \(Self.spelled(resolved))")
                    shape += payloadShape(of: resolved, prefix: "\(prefix)\(stored.name).", depth: depth + 1, declaredTypes: &declaredTypes)
                }
            }
            return shape
        }
    }

    /// A type as Swift spells it, declared types by their simple name (each schema's copy of a
    /// payload type has its own qualified name).
    static func spelled(_ type: SwiftType) -> String {
        switch type {
        case .declared(let name): String(name.split(separator: ".").last ?? Substring(name))
        case .builtin(let name), .unknown(let name): name
        case .optional(let wrapped): "\(spelled(wrapped))?"
        case .array(let element): "[\(spelled(element))]"
        case .set(let element): "Set<\(spelled(element))>"
        case .dictionary(let key, let value): "[\(spelled(key)): \(spelled(value))]"
        }
    }

    /// True when a type is spelled optional (`T?`, `T!`, `Optional<T>`).
    static func isOptionalSpelling(_ type: TypeSyntax) -> Bool {
        type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self)
            || type.as(IdentifierTypeSyntax.self)?.name.text == "Optional"
    }

    /// The declared type, or the type an initializer literal or call gives (reference §3).
    private mutating func declaredType(of property: StoredProperty, scope: DeclarationIndex.Scope, file: Int, qualified: String) -> SwiftType? {
        if let type = property.type { return index.resolve(type, in: scope) }
        guard let initializer = property.initializer else {
            note(.unresolvedSwiftName("property '\(qualified)' has neither a type nor an initializer", at: location(property.node, file: file)))
            return nil
        }
        if let inferred = literalType(initializer, scope: scope) { return inferred }
        note(.unresolvedSwiftName("the type of '\(qualified)' comes from '\(initializer.trimmedText)', which chainplan cannot type without a build; write its type",
                                  at: location(initializer, file: file)))
        return nil
    }

    /// The type of a literal (`"a"` String, `1` Int, `1.5` Double, `true` Bool), of an
    /// initializer call of a known type (`UUID()`, `Date()`), or of `Date.now`; nil otherwise.
    private func literalType(_ expression: ExprSyntax, scope: DeclarationIndex.Scope) -> SwiftType? {
        if expression.is(StringLiteralExprSyntax.self) { return .builtin("String") }
        if expression.is(IntegerLiteralExprSyntax.self) { return .builtin("Int") }
        if expression.is(FloatLiteralExprSyntax.self) { return .builtin("Double") }
        if expression.is(BooleanLiteralExprSyntax.self) { return .builtin("Bool") }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return literalType(prefix.expression, scope: scope).flatMap { $0 == .builtin("Int") || $0 == .builtin("Double") ? $0 : nil }
        }
        if let call = expression.as(FunctionCallExprSyntax.self), let path = DeclarationIndex.path(of: call.calledExpression) {
            let type = index.resolve(path: path, in: scope)
            switch type {
            case .builtin, .declared: return type
            default: return nil
            }
        }
        if let path = DeclarationIndex.path(of: expression), path.count >= 2,
           ["now", "distantPast", "distantFuture"].contains(path.last),
           index.resolve(path: Array(path.dropLast()), in: scope) == .builtin("Date") {
            return .builtin("Date")
        }
        return nil
    }

    /// The @Model class a relationship points at and whether it is to-many; nil for an attribute.
    private func relationshipTarget(_ type: SwiftType) -> (String, Bool)? {
        switch type {
        case .declared(let name) where index.types[name]?.isModel == true: (name, false)
        case .array(.declared(let name)) where index.types[name]?.isModel == true: (name, true)
        default: nil
        }
    }

    /// Adds the relationship `property` (to `target`) to `mapped`, with its counts, delete rule
    /// and explicit inverse.
    private mutating func relationship(_ property: StoredProperty, qualified: String, target: String, toMany: Bool, isOptional: Bool,
                                       options: AttributeOptions, scope: DeclarationIndex.Scope, at: ChainPlanCore.SourceLocation, file: Int,
                                       into mapped: inout MappedEntity) {
        let arguments = RelationshipArguments(DeclarationIndex.attribute(property.attributes, named: "Relationship"),
                                              mapper: &self, scope: scope, file: file, qualified: qualified)
        if let failure = arguments.failure { mapped.failure = mapped.failure ?? failure }
        mapped.unverified += arguments.unverified
        let destination = index.types[target]?.simpleName ?? target
        var relationship = Relationship(
            name: property.name, destinationEntity: destination, isToMany: toMany, isOptional: isOptional,
            isTransient: options.ephemeral, minCount: toMany ? (arguments.minimum ?? 0) : 0, maxCount: toMany ? (arguments.maximum ?? 0) : 1,
            deletionRule: arguments.deleteRule ?? .nullify,
            renamingIdentifier: arguments.originalName ?? options.originalName,
            versionHashModifier: arguments.hashModifier ?? options.hashModifier, line: at.line)
        relationship.column = at.column
        relationship.hasWrittenMinCount = true
        relationship.hasWrittenMaxCount = true
        if !toMany, !isOptional {
            mapped.unverified.append("\(qualified): a non-optional to-one relationship (min 0, max 1) has no ground truth yet [open, §11.13]")
        }
        if options.unique {
            if toMany {
                note(.invalidSwiftDataModel("@Attribute(.unique) on the to-many relationship '\(qualified)', which SwiftData refuses", at: at))
                mapped.failure = mapped.failure ?? "'\(qualified)' is a unique to-many relationship"
            } else {
                mapped.entity.uniquenessConstraints.append([property.name])
                mapped.unverified.append("\(qualified): .unique on a relationship [open]")
            }
        }
        mapped.entity.relationships.append(relationship)
        mapped.destinations[property.name] = target
        mapped.relationshipLocations[property.name] = at
        if let inverse = arguments.inverse { mapped.explicitInverses[property.name] = inverse }
    }

    // MARK: - Attribute types

    /// The Core Data type of a non-relationship value type (reference §3), with the composite
    /// types it needs and the [open] causes it rests on.
    private mutating func attributeType(_ type: SwiftType, qualified: String, at: ChainPlanCore.SourceLocation, depth: Int)
        -> Result<(AttributeType, [CompositeType], [String]), AttributeTypeFailure> {
        switch type {
        case .builtin(let name):
            return .success(Self.builtinType(name))
        case .array(let element), .set(let element):
            let container = { if case .set = type { "Set" } else { "array" } }()
            switch element {
            case .builtin:
                return .success((.transformable, [], ["\(container) of a primitive type: type 1800 with a built-in transformer [open, §11.2]"]))
            case .declared(let name):
                guard let declared = index.types[name] else { break }
                if declared.kind == .class {
                    note(.invalidSwiftDataModel("'\(qualified)' is a collection of the class '\(name)', which is not a @Model", at: at))
                    return .failure(AttributeTypeFailure("'\(qualified)' is a collection of a non-model class"))
                }
                if !(index.inherits(declared, "Codable") || (index.inherits(declared, "Encodable") && index.inherits(declared, "Decodable"))) {
                    note(.invalidSwiftDataModel("'\(qualified)' is a sequence of '\(name)', which declares no Codable conformance in the files read; SwiftData refuses a sequence of a non-codable type", at: at))
                    return .failure(AttributeTypeFailure("'\(qualified)' is a sequence of a non-codable type"))
                }
                return .success((.binary, [], ["\(container) of a Codable type: type 1000 [open, §11.2]"]))
            default:
                break
            }
            return .success((.binary, [], ["\(container) of '\(element)' [open, §11.2]"]))
        case .dictionary:
            return .success((.binary, [], ["dictionary: its Core Data type [open, §3]; hashed as 1000"]))
        case .declared(let name):
            guard let declared = index.types[name] else { return .failure(AttributeTypeFailure("'\(name)' is unknown")) }
            switch declared.kind {
            case .struct:
                return compositeType(declared, qualified: qualified, at: at, depth: depth)
            case .enum:
                return .success((.composite, [CompositeType(name: name, attributes: [])],
                                 ["enum '\(name)': the element layout of enum attributes [open, §11.3]; hashed as a composite with no elements"]))
            default:
                note(.unresolvedSwiftName("'\(qualified)' has the type '\(name)', a \(declared.kind.rawValue) that is not a @Model; how SwiftData stores it is not known", at: at))
                return .failure(AttributeTypeFailure("the type '\(name)' of '\(qualified)' has no known Core Data type"))
            }
        case .optional(let wrapped):
            return attributeType(wrapped, qualified: qualified, at: at, depth: depth + 1)
        case .unknown(let text):
            return .failure(AttributeTypeFailure("the type '\(text)' of '\(qualified)' is unknown"))
        }
    }

    /// Why a property has no Core Data type (its finding is made where this is returned).
    struct AttributeTypeFailure: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// A Codable struct as a composite attribute: its stored properties are the elements.
    private mutating func compositeType(_ type: DeclarationIndex.TypeDecl, qualified: String, at: ChainPlanCore.SourceLocation, depth: Int)
        -> Result<(AttributeType, [CompositeType], [String]), AttributeTypeFailure> {
        guard depth < SwiftSourceLimits.maxTypeDepth, let node = type.node.as(StructDeclSyntax.self) else {
            note(.unresolvedSwiftName("'\(qualified)' nests composite structs deeper than \(SwiftSourceLimits.maxTypeDepth) levels", at: at))
            return .failure(AttributeTypeFailure("'\(qualified)' nests composite structs too deeply"))
        }
        var elements: [Attribute] = []
        var composites: [CompositeType] = []
        var caveats = ["Codable struct '\(type.qualifiedName)' as a composite: no ground truth for composite hashes [open, §3]"]
        for member in node.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            for property in StoredProperty.properties(of: variable, transientAttribute: nil) {
                let elementName = "\(qualified).\(property.name)"
                guard let declared = declaredType(of: property, scope: type.bodyScope, file: type.file, qualified: elementName) else {
                    return .failure(AttributeTypeFailure("the type of '\(elementName)' cannot be read"))
                }
                if let unknown = declared.firstUnknown {
                    note(.unresolvedSwiftName("type '\(unknown)' of '\(elementName)' is not declared in the files read (another module?\(index.moduleNameHint(for: unknown)))",
                                              at: location(property.node, file: type.file)))
                    return .failure(AttributeTypeFailure("the type '\(unknown)' of '\(elementName)' is unknown"))
                }
                let (value, isOptional) = declared.withoutOptional
                if case .declared(let name) = value, index.types[name]?.kind == .class {
                    note(.invalidSwiftDataModel("'\(elementName)' is a class-typed property inside the persisted struct '\(type.qualifiedName)', which SwiftData refuses",
                                                at: location(property.node, file: type.file)))
                    return .failure(AttributeTypeFailure("'\(elementName)' is a class inside a persisted struct"))
                }
                switch attributeType(value, qualified: elementName, at: location(property.node, file: type.file), depth: depth + 1) {
                case .failure(let failure): return .failure(failure)
                case .success(let (elementType, nested, nestedCaveats)):
                    var element = Attribute(name: property.name, type: elementType, isOptional: isOptional)
                    if elementType == .composite { element.compositeName = nested.first?.name }
                    elements.append(element)
                    composites += nested
                    caveats += nestedCaveats
                }
            }
        }
        return .success((.composite, [CompositeType(name: type.qualifiedName, attributes: elements)] + composites, caveats))
    }

    /// The attribute type of a built-in Swift type (reference §3), with an [open] cause for the
    /// types whose bucket is not settled.
    static func builtinType(_ name: String) -> (AttributeType, [CompositeType], [String]) {
        switch name {
        case "String": (.string, [], [])
        case "Bool": (.boolean, [], [])
        case "Int", "Int64": (.integer64, [], [])
        case "Int32": (.integer32, [], [])
        case "Int16": (.integer16, [], [])
        case "Double": (.double, [], [])
        case "Float": (.float, [], [])
        case "Decimal": (.decimal, [], [])
        case "Date": (.date, [], [])
        case "UUID": (.uuid, [], [])
        case "URL": (.uri, [], [])
        case "Data": (.binary, [], [])
        case "UInt", "UInt64": (.integer64, [], ["\(name): likely type 300 [open, §11.1]"])
        case "UInt32": (.integer32, [], ["\(name): likely type 200 [open, §11.1]"])
        case "UInt16", "UInt8", "Int8": (.integer16, [], ["\(name): likely type 100 [open, §11.1]"])
        case "Float16": (.float, [], ["\(name): type 600 or 500 [open, §11.1]; hashed as 600"])
        case "CGFloat": (.double, [], ["\(name): type 600 or 500 [open, §11.1]; hashed as 500"])
        default: (.binary, [], ["\(name): Core Data type not known [open]"])
        }
    }
}

/// A stored property of a `@Model` class or persisted struct, as the macro sees it (reference
/// §9): a `var` or `let` without a computed accessor, neither `static` nor `@Transient`.
struct StoredProperty {
    var name: String
    var type: TypeSyntax?
    var initializer: ExprSyntax?
    var attributes: AttributeListSyntax
    var node: Syntax
    /// A form the reference has not examined (observers, `lazy`, a property wrapper).
    var unverified: String?

    /// The stored properties one declaration declares (`var a, b: Int` declares two);
    /// `transientAttribute` names the attribute that leaves a property out.
    /// The attributes a stored property may carry without changing what SwiftData persists.
    static let knownAttributes: Set<String> = ["Attribute", "Relationship", "Transient", "available", "objc", "ObservationIgnored", "preconcurrency"]

    static func properties(of variable: VariableDeclSyntax, transientAttribute: String? = "Transient") -> [StoredProperty] {
        let modifiers = Set(variable.modifiers.map(\.name.text))
        if !modifiers.isDisjoint(with: ["static", "class"]) { return [] }
        if let transientAttribute, DeclarationIndex.hasAttribute(variable.attributes, named: transientAttribute) { return [] }
        var unverified: String?
        if modifiers.contains("lazy") { unverified = "a lazy property" }
        for element in variable.attributes {
            if case .attribute(let attribute) = element {
                let name = attribute.attributeName.trimmedText.split(separator: ".").last.map(String.init) ?? ""
                if !knownAttributes.contains(name) { unverified = "the property wrapper or attribute '@\(name)'" }
            }
        }
        let bindings = Array(variable.bindings)
        var result: [StoredProperty] = []
        for (position, binding) in bindings.enumerated() {
            guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
            var reason = unverified
            if let accessors = binding.accessorBlock {
                switch accessors.accessors {
                case .getter:
                    continue
                case .accessors(let list):
                    let kinds = Set(list.map(\.accessorSpecifier.text))
                    guard kinds.isSubset(of: ["willSet", "didSet"]) else { continue }
                    reason = "a property with observers"
                }
            }
            var type = binding.typeAnnotation?.type
            if type == nil, binding.initializer == nil {
                // `var a, b: Int`: the type written on a later binding applies.
                type = bindings[(position + 1)...].first { $0.typeAnnotation != nil }?.typeAnnotation?.type
            }
            result.append(StoredProperty(name: pattern.identifier.text, type: type, initializer: binding.initializer?.value,
                                         attributes: variable.attributes, node: Syntax(binding), unverified: reason))
        }
        return result
    }
}

/// `@Attribute(…)` options and arguments of one property (reference §4).
struct AttributeOptions {
    var unique = false
    var externalStorage = false
    var preserveValueOnDeletion = false
    var ephemeral = false
    var codable = false
    var transformer: String?
    var originalName: String?
    var hashModifier: String?
    var unverified: [String] = []
    var failure: String?

    init(_ attributes: AttributeListSyntax, mapper: inout ModelMapper, file: Int, qualified: String) {
        guard let attribute = DeclarationIndex.attribute(attributes, named: "Attribute") else { return }
        guard let arguments = attribute.arguments, case .argumentList(let list) = arguments else { return }
        for argument in list {
            let at = mapper.location(argument, file: file)
            switch argument.label?.text {
            case "originalName"?:
                if let text = StringLiteral.value(argument.expression) {
                    originalName = text.isEmpty ? nil : text
                } else {
                    mapper.note(.unresolvedSwiftName("originalName of '\(qualified)' is not a string literal; its renaming identifier is unknown", at: at))
                }
            case "hashModifier"?:
                if let text = StringLiteral.value(argument.expression) {
                    hashModifier = text.isEmpty ? nil : text
                    if hashModifier != nil { unverified.append("\(qualified): hashModifier has no ground truth yet [open, §11.13]") }
                } else {
                    mapper.note(.unresolvedSwiftName("hashModifier of '\(qualified)' is not a string literal; the hash it feeds is unknown", at: at))
                    failure = "the hashModifier of '\(qualified)' is not a literal"
                }
            case nil:
                option(argument.expression, mapper: &mapper, at: at, qualified: qualified)
            case let label?:
                mapper.note(.unresolvedSwiftName("@Attribute argument '\(label):' of '\(qualified)' is not one chainplan knows", at: at))
                failure = failure ?? "an unknown @Attribute argument on '\(qualified)'"
            }
        }
    }

    private mutating func option(_ expression: ExprSyntax, mapper: inout ModelMapper, at: ChainPlanCore.SourceLocation, qualified: String) {
        var name: String?
        var call: FunctionCallExprSyntax?
        if let member = expression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
        } else if let node = expression.as(FunctionCallExprSyntax.self), let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
            call = node
        }
        switch name {
        case "unique": unique = true
        case "externalStorage": externalStorage = true
        case "preserveValueOnDeletion": preserveValueOnDeletion = true
        case "ephemeral": ephemeral = true
        case "spotlight", "allowsCloudEncryption": break
        case "codable": codable = true
        case "transformable":
            let argument = call?.arguments.first?.expression
            if let argument, let path = DeclarationIndex.metatypePath(argument) {
                transformer = path.joined(separator: ".")
            } else if let argument, let text = StringLiteral.value(argument) {
                transformer = text
            } else {
                transformer = argument?.trimmedText ?? ""
            }
        default:
            mapper.note(.unresolvedSwiftName("@Attribute option '\(expression.trimmedText)' of '\(qualified)' is not one chainplan knows", at: at))
            failure = failure ?? "an unknown @Attribute option on '\(qualified)'"
        }
    }
}

/// `@Relationship(…)` arguments of one property (reference §5).
struct RelationshipArguments {
    var deleteRule: DeletionRule?
    var inverse: (type: String, property: String)?
    var minimum: Int?
    var maximum: Int?
    var originalName: String?
    var hashModifier: String?
    var unverified: [String] = []
    var failure: String?

    init(_ attribute: AttributeSyntax?, mapper: inout ModelMapper, scope: DeclarationIndex.Scope, file: Int, qualified: String) {
        guard let attribute, let arguments = attribute.arguments, case .argumentList(let list) = arguments else { return }
        for argument in list {
            let at = mapper.location(argument, file: file)
            let expression = argument.expression
            switch argument.label?.text {
            case "deleteRule"?:
                let name = expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
                switch name {
                case "nullify": deleteRule = .nullify
                case "cascade": deleteRule = .cascade
                case "deny": deleteRule = .deny
                case "noAction": deleteRule = .noAction
                default:
                    mapper.note(.unresolvedSwiftName("deleteRule '\(expression.trimmedText)' of '\(qualified)' is not a literal rule", at: at))
                }
            case "inverse"?:
                guard let keyPath = expression.as(KeyPathExprSyntax.self), let root = keyPath.root,
                      let property = ModelMapper.propertyName(keyPath) else {
                    mapper.note(.unresolvedSwiftName("inverse '\(expression.trimmedText)' of '\(qualified)' is not a key path '\\Type.property'", at: at))
                    failure = failure ?? "the inverse of '\(qualified)' cannot be read"
                    continue
                }
                switch mapper.index.resolve(root, in: scope) {
                case .declared(let type) where mapper.index.types[type]?.isModel == true:
                    inverse = (type, property)
                case let other:
                    mapper.note(.unresolvedSwiftName("inverse root '\(root.trimmedText)' of '\(qualified)' resolves to '\(other)', not a @Model class of the files read", at: at))
                    failure = failure ?? "the inverse of '\(qualified)' cannot be resolved"
                }
            case "minimumModelCount"?, "maximumModelCount"?:
                guard let literal = expression.as(IntegerLiteralExprSyntax.self), let value = Int(literal.literal.text.replacingOccurrences(of: "_", with: "")) else {
                    mapper.note(.unresolvedSwiftName("\(argument.label?.text ?? "") of '\(qualified)' is not an integer literal; the count it feeds the hash is unknown", at: at))
                    failure = failure ?? "a count of '\(qualified)' is not a literal"
                    continue
                }
                if argument.label?.text == "minimumModelCount" { minimum = value } else { maximum = value }
                unverified.append("\(qualified): explicit model counts have no ground truth yet [open, CDI §1.4]")
            case "originalName"?:
                if let text = StringLiteral.value(expression) {
                    originalName = text.isEmpty ? nil : text
                } else {
                    mapper.note(.unresolvedSwiftName("originalName of '\(qualified)' is not a string literal; its renaming identifier is unknown", at: at))
                }
            case "hashModifier"?:
                if let text = StringLiteral.value(expression) {
                    hashModifier = text.isEmpty ? nil : text
                    if hashModifier != nil { unverified.append("\(qualified): hashModifier has no ground truth yet [open, §11.13]") }
                } else {
                    mapper.note(.unresolvedSwiftName("hashModifier of '\(qualified)' is not a string literal; the hash it feeds is unknown", at: at))
                    failure = "the hashModifier of '\(qualified)' is not a literal"
                }
            default:
                mapper.note(.unresolvedSwiftName("@Relationship argument '\(argument.trimmedText)' of '\(qualified)' is not one chainplan knows", at: at))
                failure = failure ?? "an unknown @Relationship argument on '\(qualified)'"
            }
        }
    }
}

/// The value of a string literal without interpolation.
enum StringLiteral {
    static func value(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let plain = segment.as(StringSegmentSyntax.self) else { return nil }
            text += plain.content.text
        }
        return text
    }
}

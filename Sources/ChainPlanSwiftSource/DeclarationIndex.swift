import ChainPlanCore
import Foundation
import SwiftSyntax

/// A Swift type as far as the reader can name it without type-checking.
package indirect enum SwiftType: Sendable, Hashable, CustomStringConvertible {
    /// A type declared in the sources read, by its qualified name (`SchemaV2.Trip`).
    case declared(String)
    /// A standard library or Foundation type the reference maps (`String`, `Date`, …).
    case builtin(String)
    case optional(SwiftType)
    case array(SwiftType)
    case set(SwiftType)
    case dictionary(SwiftType, SwiftType)
    /// A type the sources do not declare and the reader does not know (another module's), or
    /// a spelling it cannot read; the text as written.
    case unknown(String)

    /// The type as Swift spells it (`[Stop]?`), qualified names for declared types.
    package var description: String {
        switch self {
        case .declared(let name), .builtin(let name), .unknown(let name): name
        case .optional(let wrapped): "\(wrapped)?"
        case .array(let element): "[\(element)]"
        case .set(let element): "Set<\(element)>"
        case .dictionary(let key, let value): "[\(key): \(value)]"
        }
    }

    /// The type without an outer optional, and whether it had one (`T?` → `T`, true).
    package var withoutOptional: (type: SwiftType, isOptional: Bool) {
        if case .optional(let wrapped) = self { return (wrapped, true) }
        return (self, false)
    }

    /// The first unknown part, if any.
    package var firstUnknown: String? {
        switch self {
        case .unknown(let text): text
        case .declared, .builtin: nil
        case .optional(let inner), .array(let inner), .set(let inner): inner.firstUnknown
        case .dictionary(let key, let value): key.firstUnknown ?? value.firstUnknown
        }
    }
}

/// Every type, extension and typealias the sources declare, and Swift's lookup of a type name
/// from a lexical scope (reference §9.2): the innermost type's members first (from every
/// extension), then each enclosing type's, then the module's top level in every file. An
/// extension's body sees the extended type's members and then the top level, not the members of
/// the types that enclose the extended type.
package struct DeclarationIndex {
    /// A scope: the qualified names of the types whose members a name is looked up in,
    /// innermost first; the module's top level is searched after them.
    package typealias Scope = [String]

    /// A type declaration with the members its extensions add.
    package struct TypeDecl {
        /// What kind of type the declaration declares.
        package enum Kind: String { case `class`, `struct`, `enum`, actor, `protocol` }

        /// The name qualified by the enclosing types (`SchemaV2.Trip`): the index's key.
        package var qualifiedName: String
        /// The name as declared (`Trip`): SwiftData's entity name for a `@Model` class.
        package var simpleName: String
        package var kind: Kind
        /// The primary declaration.
        package var node: DeclSyntax
        /// The position of the declaration's file among the files read.
        package var file: Int
        /// The scope of the primary declaration's body.
        package var bodyScope: Scope
        /// Each member block (the declaration's, then every resolved extension's) with the scope
        /// names in it are looked up in.
        package var memberBlocks: [(members: MemberBlockItemListSyntax, scope: Scope, file: Int)]
        /// Inherited types (declaration and extensions), as written, with their scope and file.
        package var inherited: [(type: TypeSyntax, scope: Scope, file: Int)]
        /// `@Model` is on the declaration.
        package var isModel: Bool
        /// The innermost `#if` the declaration sits in, when it does.
        package var conditional: UndecidedIf?
    }

    /// A typealias: its target, resolved in the scope it is declared in.
    package struct Alias {
        /// The aliased type, as written.
        package var target: TypeSyntax
        /// The scope the alias is declared in, which its target resolves from.
        package var scope: Scope
        /// The position of the alias's file among the files read.
        package var file: Int
    }

    /// Every type declared, by qualified name.
    package private(set) var types: [String: TypeDecl] = [:]
    /// Every typealias declared, by qualified name.
    package private(set) var aliases: [String: Alias] = [:]
    /// Declarations the reader could not place (an extension of a type the sources do not
    /// declare that holds a `@Model`, a name declared twice), with the reason.
    package private(set) var problems: [(file: Int, node: Syntax, reason: String)] = []
    /// An `#if` the stated configuration cannot decide: its file, node, and why.
    package typealias UndecidedIf = (file: Int, node: IfConfigDeclSyntax, reason: String)

    /// Every `#if` that holds a `@Model` class or sits in one's body and that `configuration`
    /// cannot decide, with why (its first clause is read).
    package private(set) var conditionalModels: [UndecidedIf] = []
    /// The configuration `#if` is decided under.
    package let configuration: StatedConfiguration

    /// Extensions whose extended type is not resolved yet.
    private var pendingExtensions: [(node: ExtensionDeclSyntax, file: Int, conditional: UndecidedIf?)] = []

    /// Indexes every declaration of `files`, `#if` decided under `configuration`.
    package init(files: [ParsedSwiftFile], configuration: StatedConfiguration = .default) {
        self.configuration = configuration
        for (position, file) in files.enumerated() {
            for item in file.tree.statements {
                if case .decl(let decl) = item.item { collect(decl, container: nil, scope: [], file: position, conditional: nil, topLevel: true) }
            }
        }
        // Extensions of types declared in other extensions resolve once those are in: repeat
        // until a round adds nothing.
        while !pendingExtensions.isEmpty {
            let pending = pendingExtensions
            pendingExtensions = []
            var progressed = false
            var unresolved: [(node: ExtensionDeclSyntax, file: Int, conditional: UndecidedIf?)] = []
            for entry in pending {
                if case .declared(let name) = resolve(entry.node.extendedType, in: []) {
                    progressed = true
                    addExtension(entry.node, of: name, file: entry.file, conditional: entry.conditional)
                } else {
                    unresolved.append(entry)
                }
            }
            if !progressed {
                for entry in unresolved where Self.holdsModel(entry.node.memberBlock.members) {
                    problems.append((entry.file, Syntax(entry.node.extendedType),
                                     "extension of '\(entry.node.extendedType.trimmedText)', which the sources do not declare, holds a @Model class"))
                }
                break
            }
            pendingExtensions = unresolved
        }
    }

    // MARK: - Collecting

    /// Indexes `decl`, declared in `container` (nil: the top level) whose body scope is `scope`,
    /// and the declarations nested in it.
    private mutating func collect(_ decl: DeclSyntax, container: String?, scope: Scope, file: Int,
                                  conditional: UndecidedIf?, topLevel: Bool) {
        func qualified(_ name: String) -> String { container.map { "\($0).\(name)" } ?? name }
        func addType(_ name: TokenSyntax, _ kind: TypeDecl.Kind, attributes: AttributeListSyntax,
                     inheritance: InheritanceClauseSyntax?, members: MemberBlockItemListSyntax) {
            let full = qualified(name.text)
            let body = [full] + scope
            guard types[full] == nil else {
                problems.append((file, Syntax(name), "type '\(full)' is declared more than once"))
                return
            }
            let isModel = Self.hasAttribute(attributes, named: "Model")
            types[full] = TypeDecl(
                qualifiedName: full, simpleName: name.text, kind: kind, node: decl, file: file, bodyScope: body,
                memberBlocks: [(members, body, file)],
                inherited: (inheritance?.inheritedTypes.map { ($0.type, scope, file) }) ?? [],
                isModel: isModel, conditional: conditional)
            if isModel, let conditional { conditionalModels.append(conditional) }
            collect(members: members, container: full, scope: body, file: file, conditional: conditional, modelBody: isModel)
        }
        if let node = decl.as(ClassDeclSyntax.self) {
            addType(node.name, .class, attributes: node.attributes, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        } else if let node = decl.as(StructDeclSyntax.self) {
            addType(node.name, .struct, attributes: node.attributes, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        } else if let node = decl.as(EnumDeclSyntax.self) {
            addType(node.name, .enum, attributes: node.attributes, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        } else if let node = decl.as(ActorDeclSyntax.self) {
            addType(node.name, .actor, attributes: node.attributes, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        } else if let node = decl.as(ProtocolDeclSyntax.self) {
            addType(node.name, .protocol, attributes: node.attributes, inheritance: node.inheritanceClause, members: node.memberBlock.members)
        } else if let node = decl.as(TypeAliasDeclSyntax.self) {
            let full = qualified(node.name.text)
            if aliases[full] == nil, types[full] == nil {
                aliases[full] = Alias(target: node.initializer.value, scope: scope, file: file)
            }
        } else if let node = decl.as(ExtensionDeclSyntax.self), topLevel {
            pendingExtensions.append((node, file, conditional))
        } else if let node = decl.as(IfConfigDeclSyntax.self) {
            // The active clause under the configuration; when it cannot be decided, the first
            // clause, its declarations marked conditional and a @Model under it reported.
            let (chosen, undecided) = clause(of: node)
            guard let elements = chosen?.elements else { return }
            let marked = undecided.map { (file, node, $0) } ?? conditional
            switch elements {
            case .decls(let members):
                if let undecided, Self.holdsModel(members) { conditionalModels.append((file, node, undecided)) }
                for member in members { collect(member.decl, container: container, scope: scope, file: file, conditional: marked, topLevel: topLevel) }
            case .statements(let items):
                for item in items {
                    if case .decl(let inner) = item.item {
                        if let undecided, inner.as(ClassDeclSyntax.self).map({ Self.hasAttribute($0.attributes, named: "Model") }) == true {
                            conditionalModels.append((file, node, undecided))
                        }
                        collect(inner, container: container, scope: scope, file: file, conditional: marked, topLevel: topLevel)
                    }
                }
            default:
                break
            }
        }
    }

    /// The members of a type body with each `#if` replaced by its active clause's members (under
    /// `configuration`); an `#if` it cannot decide is left out, and `undecided` says so.
    package func activeMembers(_ members: MemberBlockItemListSyntax) -> (members: [MemberBlockItemSyntax], undecided: Bool) {
        var result: [MemberBlockItemSyntax] = []
        var undecided = false
        for member in members {
            guard let conditional = member.decl.as(IfConfigDeclSyntax.self) else {
                result.append(member)
                continue
            }
            let (chosen, reason) = clause(of: conditional)
            guard reason == nil else {
                undecided = true
                continue
            }
            if case .decls(let inner)? = chosen?.elements {
                let nested = activeMembers(inner)
                result += nested.members
                undecided = undecided || nested.undecided
            }
        }
        return (result, undecided)
    }

    /// The clause of `node` read: the active one under `configuration` (nil when none is), or,
    /// when the configuration cannot decide, the first with why.
    package func clause(of node: IfConfigDeclSyntax) -> (clause: IfConfigClauseSyntax?, undecided: String?) {
        switch configuration.activeClause(of: node) {
        case .success(let clause): return (clause, nil)
        case .failure(let failure): return (node.clauses.first, failure.reason)
        }
    }

    /// Indexes each member of a type body; `#if` in a `@Model` body is noted.
    private mutating func collect(members: MemberBlockItemListSyntax, container: String, scope: Scope, file: Int,
                                  conditional: UndecidedIf?, modelBody: Bool) {
        for member in members {
            if modelBody, let node = member.decl.as(IfConfigDeclSyntax.self), let undecided = clause(of: node).undecided {
                conditionalModels.append((file, node, undecided))
            }
            collect(member.decl, container: container, scope: scope, file: file, conditional: conditional, topLevel: false)
        }
    }

    /// Adds an extension's members and conformances to the type it extends (`name`).
    private mutating func addExtension(_ node: ExtensionDeclSyntax, of name: String, file: Int,
                                       conditional: UndecidedIf?) {
        let scope: Scope = [name]
        types[name]?.memberBlocks.append((node.memberBlock.members, scope, file))
        types[name]?.inherited += (node.inheritanceClause?.inheritedTypes.map { ($0.type, [], file) }) ?? []
        collect(members: node.memberBlock.members, container: name, scope: scope, file: file, conditional: conditional, modelBody: false)
    }

    /// True when `attributes` has `@name` (or `@Module.name`).
    package static func hasAttribute(_ attributes: AttributeListSyntax, named name: String) -> Bool {
        attribute(attributes, named: name) != nil
    }

    /// The attribute `@name` (or `@Module.name`) of `attributes`.
    package static func attribute(_ attributes: AttributeListSyntax, named name: String) -> AttributeSyntax? {
        for element in attributes {
            guard case .attribute(let attribute) = element else { continue }
            // `@Name` (the common spelling) without rendering the type; `@Module.Name` rendered.
            if let identifier = attribute.attributeName.as(IdentifierTypeSyntax.self), identifier.genericArgumentClause == nil {
                if identifier.name.text == name { return attribute }
                continue
            }
            let spelled = attribute.attributeName.trimmedText
            if spelled == name || spelled.hasSuffix("." + name) { return attribute }
        }
        return nil
    }

    /// True when a member list declares a `@Model` class.
    private static func holdsModel(_ members: MemberBlockItemListSyntax) -> Bool {
        members.contains { member in
            if let node = member.decl.as(ClassDeclSyntax.self) { return hasAttribute(node.attributes, named: "Model") }
            return false
        }
    }

    // MARK: - Lookup

    /// `type` resolved from `scope` as Swift resolves it, as far as the sources say.
    package func resolve(_ type: TypeSyntax, in scope: Scope) -> SwiftType {
        resolve(type, in: scope, depth: 0)
    }

    /// `resolve(_:in:)`, `depth` typealiases and nested types deep.
    private func resolve(_ type: TypeSyntax, in scope: Scope, depth: Int) -> SwiftType {
        guard depth <= SwiftSourceLimits.maxAliasDepth else { return .unknown(type.trimmedText) }
        if let node = type.as(OptionalTypeSyntax.self) { return .optional(resolve(node.wrappedType, in: scope, depth: depth + 1)) }
        if let node = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return .optional(resolve(node.wrappedType, in: scope, depth: depth + 1)) }
        if let node = type.as(ArrayTypeSyntax.self) { return .array(resolve(node.element, in: scope, depth: depth + 1)) }
        if let node = type.as(DictionaryTypeSyntax.self) {
            return .dictionary(resolve(node.key, in: scope, depth: depth + 1), resolve(node.value, in: scope, depth: depth + 1))
        }
        guard let path = Self.path(of: type) else { return .unknown(type.trimmedText) }
        if let last = path.last, !last.arguments.isEmpty {
            // Generic spellings of the standard containers; other generic types are unknown.
            guard path.count == 1 || (path.count == 2 && path[0].name == "Swift") else { return .unknown(type.trimmedText) }
            let arguments = last.arguments.map { resolve($0, in: scope, depth: depth + 1) }
            switch (last.name, arguments.count) {
            case ("Optional", 1): return .optional(arguments[0])
            case ("Array", 1): return .array(arguments[0])
            case ("Set", 1): return .set(arguments[0])
            case ("Dictionary", 2): return .dictionary(arguments[0], arguments[1])
            default: return .unknown(type.trimmedText)
            }
        }
        guard !path.dropLast().contains(where: { !$0.arguments.isEmpty }) else { return .unknown(type.trimmedText) }
        return resolve(path: path.map(\.name), in: scope, depth: depth)
    }

    /// A dotted name (`SchemaV2.Trip`, `Trip`) resolved from `scope`.
    package func resolve(path: [String], in scope: Scope) -> SwiftType {
        resolve(path: path, in: scope, depth: 0)
    }

    /// `resolve(path:in:)`, `depth` typealiases deep.
    private func resolve(path: [String], in scope: Scope, depth: Int) -> SwiftType {
        let written = path.joined(separator: ".")
        guard let first = path.first else { return .unknown(written) }
        var current: SwiftType?
        for container in scope + [""] {
            if let found = member(first, of: container, depth: depth) {
                // An alias that resolves to nothing (a cycle, another module's type) is unknown as written here.
                if found.firstUnknown != nil, case .unknown = found { return .unknown(written) }
                current = found
                break
            }
        }
        guard var resolved = current else {
            if path.count == 1, let builtin = Self.builtin(first) { return .builtin(builtin) }
            if path.count == 2, Self.systemModules.contains(first), let builtin = Self.builtin(path[1]) { return .builtin(builtin) }
            // Qualified by the sources' own module (no type of that name exists): its top level.
            if path.count >= 2, first == configuration.moduleName {
                let inModule = resolve(path: Array(path.dropFirst()), in: [], depth: depth + 1)
                if case .unknown = inModule { return .unknown(written) }
                return inModule
            }
            return .unknown(written)
        }
        for name in path.dropFirst() {
            guard case .declared(let container) = resolved, let found = member(name, of: container, depth: depth) else {
                return .unknown(written)
            }
            resolved = found
        }
        return resolved
    }

    /// What a finding about a name the sources do not declare (`MyApp.Trip`) adds: when its first
    /// component may be the module the sources build (no type of that name, no system module, no
    /// module name stated), how to say so (`; if 'MyApp' is …`); empty otherwise.
    package func moduleNameHint(for written: String) -> String {
        let components = written.split(separator: ".").map(String.init)
        guard components.count >= 2, configuration.moduleName == nil, let first = components.first,
              types[first] == nil, aliases[first] == nil, !Self.systemModules.contains(first),
              !StatedConfiguration.sdkModules.contains(first) else { return "" }
        return "; if '\(first)' is the module these sources build, state it with --module-name \(first)"
    }

    /// The member type `name` of `container` (the top level when empty), typealiases followed.
    private func member(_ name: String, of container: String, depth: Int) -> SwiftType? {
        let key = container.isEmpty ? name : "\(container).\(name)"
        if types[key] != nil { return .declared(key) }
        if let alias = aliases[key] { return resolve(alias.target, in: alias.scope, depth: depth + 1) }
        return nil
    }

    /// A type spelled as a dotted name: each component with its generic arguments; nil for any
    /// other spelling (tuples, functions, `some`/`any`, attributed types).
    private static func path(of type: TypeSyntax) -> [(name: String, arguments: [TypeSyntax])]? {
        if let node = type.as(IdentifierTypeSyntax.self) {
            return [(node.name.text, arguments(node.genericArgumentClause))]
        }
        if let node = type.as(MemberTypeSyntax.self), let base = path(of: node.baseType) {
            return base + [(node.name.text, arguments(node.genericArgumentClause))]
        }
        return nil
    }

    /// The type arguments of a generic argument clause (value arguments left out).
    private static func arguments(_ clause: GenericArgumentClauseSyntax?) -> [TypeSyntax] {
        clause?.arguments.compactMap { argument in
            if case .type(let type) = argument.argument { return type }
            return nil
        } ?? []
    }

    /// Modules whose qualified names (`Foundation.Date`) name the built-in types.
    private static let systemModules: Set<String> = ["Swift", "Foundation", "CoreFoundation", "CoreGraphics"]

    /// The standard library and Foundation types the reference maps, and Foundation's
    /// typealiases to them (`TimeInterval` is `Double`).
    private static func builtin(_ name: String) -> String? {
        switch name {
        case "TimeInterval": "Double"
        case "String", "Bool", "Int", "Int64", "Int32", "Int16", "Int8", "UInt", "UInt64", "UInt32", "UInt16", "UInt8",
             "Double", "Float", "Float16", "Float32", "Float64", "CGFloat", "Decimal", "Date", "UUID", "URL", "Data":
            name == "Float32" ? "Float" : name == "Float64" ? "Double" : name
        default: nil
        }
    }

    /// The dotted name an expression spells (`A.B` in `A.B.self`), nil for any other expression.
    package static func path(of expression: ExprSyntax) -> [String]? {
        if let node = expression.as(DeclReferenceExprSyntax.self) { return [node.baseName.text] }
        if let node = expression.as(MemberAccessExprSyntax.self), let base = node.base, let prefix = path(of: base) {
            return prefix + [node.declName.baseName.text]
        }
        return nil
    }

    /// `X` of an `X.self` expression, nil for any other expression.
    package static func metatypePath(_ expression: ExprSyntax) -> [String]? {
        guard let node = expression.as(MemberAccessExprSyntax.self), node.declName.baseName.text == "self",
              let base = node.base else { return nil }
        return path(of: base)
    }

    /// True when `type` (declared) lists a conformance or superclass whose last name is `name`
    /// (`VersionedSchema`, `SwiftData.VersionedSchema`), on its declaration or an extension.
    package func inherits(_ type: TypeDecl, _ name: String) -> Bool {
        type.inherited.contains { entry in
            let spelled = entry.type.trimmedText
            return spelled == name || spelled.hasSuffix("." + name)
                || spelled.split(separator: "&").contains { $0.trimmingCharacters(in: .whitespaces) == name }
        }
    }
}

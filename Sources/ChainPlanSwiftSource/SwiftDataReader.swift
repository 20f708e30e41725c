import ChainPlanCore
import ChainPlanReaders
import Foundation
import SwiftSyntax

/// Reads SwiftData sources without a build: every `VersionedSchema` (or an app's one
/// unversioned schema), each mapped to the Core Data model SwiftData builds for it, and every
/// `SchemaMigrationPlan` (reference §1–§7, §9).
///
/// Names resolve as Swift resolves them within the files read (`DeclarationIndex`). What cannot
/// be read without type-checking is a CP602 finding at its file, line and column, and the
/// version it affects gets no model, or is marked unverified; nothing is guessed silently.
package enum SwiftDataReader {
    /// The name of an app's one unversioned schema.
    package static let unversionedName = "ModelContainer"

    /// Reads the Swift file or folder at `url`, shown as `displayPath`, `#if` decided under `configuration`.
    package static func read(at url: URL, displayPath: String, configuration: StatedConfiguration = .default) -> SwiftDataProject {
        let (loaded, problems) = SwiftSourceFiles.load(url, displayPath: displayPath)
        var project = read(files: loaded, configuration: configuration)
        project.diagnostics = (problems.map { Diagnostic.unreadableSwiftSource("'\($0.path)' \($0.reason)", at: ChainPlanCore.SourceLocation(file: $0.path)) }
            + project.diagnostics).sorted()
        if loaded.isEmpty {
            project.diagnostics.removeAll { $0.code == .noSwiftDataSchema }
        }
        return project
    }

    /// Reads Swift files given as (display path, text). The parser and the walks over its trees
    /// recurse as deep as the source nests (up to `SwiftSourceLimits.maxNesting`), so the read
    /// runs on a thread of its own with a stack large enough for that, whatever thread calls.
    package static func read(files sources: [(path: String, text: String)], configuration: StatedConfiguration = .default) -> SwiftDataProject {
        let result = Locked<SwiftDataProject?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let project = readHere(files: sources, configuration: configuration)
            result.withLock { $0 = project }
            done.signal()
        }
        thread.stackSize = 64 << 20
        thread.name = "chainplan.swiftsource"
        thread.start()
        done.wait()
        return result.withLock { $0 } ?? SwiftDataProject(versions: [], plans: [], diagnostics: [])
    }

    /// `read(files:)` on the calling thread.
    private static func readHere(files sources: [(path: String, text: String)], configuration: StatedConfiguration) -> SwiftDataProject {
        var diagnostics: [Diagnostic] = []
        var files: [ParsedSwiftFile] = []
        for source in sources {
            if let (line, column) = ParsedSwiftFile.excessiveNesting(in: source.text, limit: SwiftSourceLimits.maxBrackets) {
                diagnostics.append(.unreadableSwiftSource("'\(source.path)' nests brackets deeper than \(SwiftSourceLimits.maxBrackets) levels",
                                                          at: ChainPlanCore.SourceLocation(file: source.path, line: line, column: column)))
                continue
            }
            let parsed = ParsedSwiftFile(path: source.path, text: source.text)
            if let error = parsed.firstSyntaxError() {
                diagnostics.append(.unreadableSwiftSource("'\(source.path)' does not parse: \(error.problem)", at: error.location))
                continue
            }
            files.append(parsed)
        }
        let index = DeclarationIndex(files: files, configuration: configuration)
        var reader = Reading(index: index, files: files)
        for problem in index.problems {
            reader.mapper.note(.unresolvedSwiftName(problem.reason, at: files[problem.file].location(of: problem.node)))
        }
        for conditional in index.conditionalModels {
            reader.mapper.note(.unresolvedSwiftName("#if around or inside a @Model class cannot be decided under the stated configuration (\(index.configuration.summary)): \(conditional.reason); chainplan reads its first clause only",
                                                    at: files[conditional.file].location(of: conditional.node)))
        }
        let versions = reader.versions()
        let plans = reader.plans()
        let containers = reader.containers()
        diagnostics += FrozenSchemaCheck.findings(versions.filter { $0.name != SwiftDataReader.unversionedName })
        if versions.isEmpty, !files.isEmpty || sources.isEmpty {
            let anyModel = index.types.values.contains { $0.isModel }
            let at = ChainPlanCore.SourceLocation(file: sources.first?.path ?? "")
            reader.mapper.note(.noSwiftDataSchema(anyModel
                ? "@Model classes are declared, but no VersionedSchema lists them and no ModelContainer(for:) names them"
                : "no VersionedSchema, no ModelContainer(for:) and no @Model class in the Swift sources", at: at))
        }
        var project = SwiftDataProject(versions: versions, plans: plans, diagnostics: (diagnostics + reader.mapper.findings).sorted())
        project.containers = containers
        return project
    }
}

/// One read of the indexed files.
private struct Reading {
    let index: DeclarationIndex
    let files: [ParsedSwiftFile]
    var mapper: ModelMapper
    /// The container and `Schema([…])` calls of each file, in file order.
    let containerCalls: [ContainerCallFinder]

    init(index: DeclarationIndex, files: [ParsedSwiftFile]) {
        self.index = index
        self.files = files
        self.mapper = ModelMapper(index: index, files: files)
        self.containerCalls = files.map { file in
            let finder = ContainerCallFinder(viewMode: .sourceAccurate)
            finder.walk(file.tree)
            return finder
        }
    }

    func location(_ node: some SyntaxProtocol, file: Int) -> ChainPlanCore.SourceLocation { files[file].location(of: node) }

    // MARK: - Static members

    /// A static member's value: its initializer, or the one expression its getter returns.
    struct StaticValue {
        var expression: ExprSyntax?
        var node: Syntax
        var scope: DeclarationIndex.Scope
        var file: Int
    }

    /// The static member `name` of `type`, from its declaration or any extension (under an `#if`,
    /// when the stated configuration makes its clause active).
    func staticMember(_ name: String, of type: DeclarationIndex.TypeDecl) -> StaticValue? {
        for block in type.memberBlocks {
            for member in index.activeMembers(block.members).members {
                guard let variable = member.decl.as(VariableDeclSyntax.self),
                      variable.modifiers.contains(where: { $0.name.text == "static" || $0.name.text == "class" }) else { continue }
                for binding in variable.bindings {
                    guard binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name else { continue }
                    return StaticValue(expression: Self.value(of: binding), node: Syntax(binding), scope: block.scope, file: block.file)
                }
            }
        }
        return nil
    }

    /// The initializer of a binding, or the single expression its getter returns.
    static func value(of binding: PatternBindingSyntax) -> ExprSyntax? {
        if let initializer = binding.initializer { return initializer.value }
        guard let accessors = binding.accessorBlock else { return nil }
        var statements: CodeBlockItemListSyntax?
        switch accessors.accessors {
        case .getter(let items): statements = items
        case .accessors(let list): statements = list.first { $0.accessorSpecifier.text == "get" }?.body?.statements
        }
        guard let statements, statements.count == 1, let item = statements.first else { return nil }
        switch item.item {
        case .expr(let expression): return expression
        case .stmt(let statement): return statement.as(ReturnStmtSyntax.self)?.expression
        default: return nil
        }
    }

    // MARK: - Versions

    mutating func versions() -> [SwiftSchemaVersion] {
        let schemas = index.types.values.filter { $0.kind != .protocol && index.inherits($0, "VersionedSchema") }.sorted { $0.qualifiedName < $1.qualifiedName }
        var versions: [SwiftSchemaVersion]
        if schemas.isEmpty {
            versions = containerVersion().map { [$0] } ?? []
        } else {
            versions = schemas.map { schemaVersion($0) }
        }
        return versions.sorted { lhs, rhs in
            switch (lhs.identifier, rhs.identifier) {
            case let (l?, r?) where l != r: return VersionOrder.areInIncreasingOrder(l, r)
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.name < rhs.name
            }
        }
    }

    private mutating func schemaVersion(_ schema: DeclarationIndex.TypeDecl) -> SwiftSchemaVersion {
        let at = location(Self.nameNode(schema.node) ?? Syntax(schema.node), file: schema.file)
        var identifier: String?
        if let member = staticMember("versionIdentifier", of: schema) {
            if let expression = member.expression, let version = Self.version(expression) {
                identifier = version
            } else {
                mapper.note(.unresolvedSwiftName("versionIdentifier of '\(schema.qualifiedName)' is not a Schema.Version(major, minor, patch) literal",
                                                 at: location(member.expression.map(Syntax.init) ?? member.node, file: member.file)))
            }
        } else {
            mapper.note(.unresolvedSwiftName("VersionedSchema '\(schema.qualifiedName)' declares no static versionIdentifier in the files read", at: at))
        }
        guard let models = staticMember("models", of: schema) else {
            mapper.note(.unresolvedSwiftName("VersionedSchema '\(schema.qualifiedName)' declares no static models in the files read", at: at))
            return SwiftSchemaVersion(name: schema.qualifiedName, identifier: identifier, model: nil,
                                      failure: "its models are not declared in the files read", unverified: [], location: at)
        }
        guard let list = models.expression.flatMap(Self.arrayElements) else {
            mapper.note(.unresolvedSwiftName("models of '\(schema.qualifiedName)' is computed by code, not an array literal of 'Type.self'; chainplan cannot list it without a build",
                                             at: location(models.expression.map(Syntax.init) ?? models.node, file: models.file)))
            return SwiftSchemaVersion(name: schema.qualifiedName, identifier: identifier, model: nil,
                                      failure: "its models are computed by code", unverified: [], location: at)
        }
        var roots: [String] = []
        var failure: String?
        for element in list {
            guard let model = modelType(element, scope: models.scope, file: models.file, owner: "models of '\(schema.qualifiedName)'") else {
                failure = failure ?? "'\(element.trimmedText)' in its models is not a @Model class of the files read"
                continue
            }
            roots.append(model)
        }
        var version = build(name: schema.qualifiedName, identifier: identifier, roots: roots, at: at)
        if let failure, version.failure == nil {
            version.model = nil
            version.failure = failure
        }
        return version
    }

    /// What an `X.self` element names, resolved from `scope`: its path, and the declared type
    /// it resolves to (nil when the files do not declare it); nil when it is not an `X.self`.
    func metatype(_ element: ExprSyntax, scope: DeclarationIndex.Scope) -> (path: [String], declared: String?)? {
        guard let path = DeclarationIndex.metatypePath(element) else { return nil }
        guard case .declared(let name) = index.resolve(path: path, in: scope) else { return (path, nil) }
        return (path, name)
    }

    /// The @Model class `X` of an `X.self` element, resolved from `scope`; a finding otherwise.
    private mutating func modelType(_ element: ExprSyntax, scope: DeclarationIndex.Scope, file: Int, owner: String) -> String? {
        guard let resolved = metatype(element, scope: scope) else {
            mapper.note(.unresolvedSwiftName("'\(element.trimmedText)' in \(owner) is not a 'Type.self' literal", at: location(element, file: file)))
            return nil
        }
        let path = resolved.path
        guard let name = resolved.declared else {
            let written = path.joined(separator: ".")
            mapper.note(.unresolvedSwiftName("'\(written)' in \(owner) is not declared in the files read (another module?\(index.moduleNameHint(for: written)))",
                                             at: location(element, file: file)))
            return nil
        }
        guard index.types[name]?.isModel == true else {
            mapper.note(.unresolvedSwiftName("'\(path.joined(separator: "."))' in \(owner) resolves to '\(name)', which is not a @Model class",
                                             at: location(element, file: file)))
            return nil
        }
        return name
    }

    /// Whether `name` is a declared type that inherits `protocolName` (as written in the files).
    func declares(_ name: String?, inheriting protocolName: String) -> Bool {
        guard let name, let type = index.types[name] else { return false }
        return index.inherits(type, protocolName)
    }

    /// The app's one unversioned schema: the models every `ModelContainer(for:)`,
    /// `.modelContainer(for:)` and `Schema([…])` names.
    private mutating func containerVersion() -> SwiftSchemaVersion? {
        var roots: [String] = []
        var first: ChainPlanCore.SourceLocation?
        var calls = 0
        for (position, finder) in containerCalls.enumerated() {
            for call in finder.calls {
                let scope = lexicalScope(of: Syntax(call.node))
                calls += 1
                first = first ?? location(call.node, file: position)
                for element in call.elements {
                    if let model = modelType(element, scope: scope, file: position, owner: "\(call.name)") , !roots.contains(model) {
                        roots.append(model)
                    }
                }
            }
        }
        guard calls > 0, !roots.isEmpty else { return nil }
        var version = build(name: SwiftDataReader.unversionedName, identifier: "1.0.0", roots: roots, at: first)
        version.unverified = (version.unverified + ["version identifier: SwiftData's default identifier of an unversioned Schema is not in the reference; shown as 1.0.0 (not hashed)"]).sorted()
        return version
    }

    /// The lexical scope of a node: the types that enclose it, innermost first, an extension's
    /// extended type ending the chain (reference §9.2).
    func lexicalScope(of node: Syntax) -> DeclarationIndex.Scope {
        var names: [String] = []
        var current = node.parent
        var base: String?
        while let parent = current {
            if let decl = parent.as(DeclSyntax.self), !parent.is(ProtocolDeclSyntax.self), let name = Self.nameToken(decl)?.text {
                names.append(name)
            } else if let node = parent.as(ExtensionDeclSyntax.self) {
                if case .declared(let extended) = index.resolve(node.extendedType, in: []) { base = extended }
                break
            }
            current = parent.parent
        }
        var scope: DeclarationIndex.Scope = []
        var prefix = base
        if let base { scope.append(base) }
        for name in names.reversed() {
            let qualified = prefix.map { "\($0).\(name)" } ?? name
            scope.insert(qualified, at: 0)
            prefix = qualified
        }
        return scope
    }

    static func nameToken(_ decl: DeclSyntax) -> TokenSyntax? {
        if let node = decl.as(ClassDeclSyntax.self) { return node.name }
        if let node = decl.as(StructDeclSyntax.self) { return node.name }
        if let node = decl.as(EnumDeclSyntax.self) { return node.name }
        if let node = decl.as(ActorDeclSyntax.self) { return node.name }
        if let node = decl.as(ProtocolDeclSyntax.self) { return node.name }
        return nil
    }

    static func nameNode(_ decl: DeclSyntax) -> Syntax? { nameToken(decl).map(Syntax.init) }

    /// `Schema.Version(1, 0, 0)` (also `Version(…)`, `.init(…)`) as `1.0.0`.
    static func version(_ expression: ExprSyntax) -> String? {
        guard let call = expression.as(FunctionCallExprSyntax.self) else { return nil }
        let callee = call.calledExpression.trimmedText
        guard callee.hasSuffix("Version") || callee == ".init" || callee.hasSuffix("Version.init") else { return nil }
        let numbers = call.arguments.compactMap { argument -> Int? in
            guard argument.label == nil, let literal = argument.expression.as(IntegerLiteralExprSyntax.self) else { return nil }
            return Int(literal.literal.text.replacingOccurrences(of: "_", with: ""))
        }
        guard numbers.count == 3, call.arguments.count == 3 else { return nil }
        return numbers.map(String.init).joined(separator: ".")
    }

    /// The elements of an array literal, nil for any other expression.
    static func arrayElements(_ expression: ExprSyntax) -> [ExprSyntax]? {
        expression.as(ArrayExprSyntax.self).map { $0.elements.map(\.expression) }
    }

    // MARK: - Building a version

    /// The version whose `models` are `roots`: closed over relationships (reference §6), each
    /// class mapped once, inverses paired by the reference's rule (§5).
    private mutating func build(name: String, identifier: String?, roots: [String], at: ChainPlanCore.SourceLocation?) -> SwiftSchemaVersion {
        var order: [String] = []
        var queue = roots
        var seen: Set<String> = []
        var reached: [String: SwiftSchemaVersion.Reach] = [:]
        var unverified: Set<String> = []
        var failure: String?
        var head = 0
        while head < queue.count {
            let next = queue[head]
            head += 1
            guard seen.insert(next).inserted else { continue }
            order.append(next)
            let mapped = mapper.entity(next)
            for relationship in mapped.entity.relationships {
                guard let destination = mapped.destinations[relationship.name] else { continue }
                queue.append(destination)
                if !seen.contains(destination), reached[destination] == nil, !roots.contains(destination) {
                    reached[destination] = SwiftSchemaVersion.Reach(from: next, relationship: relationship.name,
                                                                    location: mapped.relationshipLocations[relationship.name])
                }
            }
            if let parent = mapped.parent {
                queue.append(parent)
                if !seen.contains(parent), reached[parent] == nil, !roots.contains(parent) {
                    reached[parent] = SwiftSchemaVersion.Reach(from: next, relationship: "", location: nil)
                }
                unverified.insert("\(mapped.entity.name): whether the schema pulls in superclasses [open, §11.11]")
            }
        }
        var mappedByType: [String: MappedEntity] = [:]
        var typeOfEntity: [String: String] = [:]
        for type in order {
            let mapped = mapper.entity(type)
            mappedByType[type] = mapped
            unverified.formUnion(mapped.unverified)
            if let other = typeOfEntity[mapped.entity.name], other != type {
                mapper.note(.invalidSwiftDataModel("schema '\(name)' holds two model types with the entity name '\(mapped.entity.name)': '\(other)' and '\(type)'",
                                                   at: at ?? ChainPlanCore.SourceLocation(file: "")))
                failure = failure ?? "two model types share the entity name '\(mapped.entity.name)'"
            }
            typeOfEntity[mapped.entity.name] = typeOfEntity[mapped.entity.name] ?? type
            if let entityFailure = mapped.failure { failure = failure ?? entityFailure }
        }
        func recorded(_ version: SwiftSchemaVersion) -> SwiftSchemaVersion {
            var version = version
            version.roots = roots
            version.types = order
            version.reachedThrough = reached
            for type in order {
                guard let file = index.types[type].map({ files[$0.file].path }), !version.modelFiles.contains(file) else { continue }
                version.modelFiles.append(file)
            }
            return version
        }
        if let failure {
            return recorded(SwiftSchemaVersion(name: name, identifier: identifier, model: nil, failure: failure, unverified: [], location: at))
        }
        var entities = order.compactMap { mappedByType[$0]?.entity }
        pairInverses(order: order, mapped: mappedByType, entities: &entities, unverified: &unverified)
        var composites: [CompositeType] = []
        for type in order {
            for composite in mappedByType[type]?.composites ?? [] where !composites.contains(where: { $0.name == composite.name }) {
                composites.append(composite)
            }
        }
        let model = ObjectModel(entities: entities, composites: composites, versionIdentifier: identifier)
        var version = SwiftSchemaVersion(name: name, identifier: identifier, model: model, failure: nil, unverified: unverified.sorted(), location: at)
        version.codablePayloads = order.flatMap { mappedByType[$0]?.codablePayloads ?? [] }
        return recorded(version)
    }
}

// MARK: - Inverses

extension Reading {
    /// Sets each relationship's inverse: an explicit `inverse:` on either side names both; the
    /// others pair by the reference's rule (§5): between entities A ≠ B, when A has exactly one
    /// relationship to B and B exactly one to A, the two are inverses; otherwise none. The
    /// shapes the reference leaves open get no inverse (or the rule's pair) and an [open] cause.
    fileprivate mutating func pairInverses(order: [String], mapped: [String: MappedEntity], entities: inout [Entity], unverified: inout Set<String>) {
        var position: [String: Int] = [:]
        for (offset, type) in order.enumerated() { position[type] = offset }
        /// (type, relationship) pairs already given an inverse by an explicit `inverse:`.
        var explicit: Set<String> = []
        func key(_ type: String, _ relationship: String) -> String { "\(type)#\(relationship)" }
        for type in order {
            guard let entity = mapped[type] else { continue }
            for (name, inverse) in entity.explicitInverses.sorted(by: { $0.key < $1.key }) {
                let at = entity.relationshipLocations[name] ?? ChainPlanCore.SourceLocation(file: "")
                let qualified = "\(entity.entity.name).\(name)"
                guard let source = position[type], let target = position[inverse.type],
                      let back = entities[target].relationships.firstIndex(where: { $0.name == inverse.property }),
                      mapped[inverse.type]?.destinations[inverse.property] == type else {
                    mapper.note(.invalidSwiftDataModel("inverse of '\(qualified)' names '\(inverse.type).\(inverse.property)', which is not a relationship back to '\(entity.entity.name)'", at: at))
                    continue
                }
                if entity.destinations[name] != inverse.type {
                    mapper.note(.invalidSwiftDataModel("inverse of '\(qualified)' is on '\(inverse.type)', but the relationship's destination is '\(entity.destinations[name] ?? "?")'", at: at))
                    continue
                }
                if let own = entities[source].relationships.firstIndex(where: { $0.name == name }) {
                    entities[source].relationships[own].inverseName = inverse.property
                    entities[source].relationships[own].inverseEntity = entities[target].name
                }
                entities[target].relationships[back].inverseName = name
                entities[target].relationships[back].inverseEntity = entities[source].name
                explicit.insert(key(type, name))
                explicit.insert(key(inverse.type, inverse.property))
                unverified.insert("\(qualified): an explicit inverse, carried by both sides, has no ground truth yet [open, §11.6, §11.13]")
            }
        }
        for (a, typeA) in order.enumerated() {
            guard let mappedA = mapped[typeA] else { continue }
            // Self-relationships: open; no inverse.
            for relationship in entities[a].relationships where mappedA.destinations[relationship.name] == typeA && !explicit.contains(key(typeA, relationship.name)) {
                unverified.insert("\(entities[a].name).\(relationship.name): implicit inverse of a self-relationship [open, §5]; given none")
            }
            for (b, typeB) in order.enumerated() where b > a {
                guard let mappedB = mapped[typeB] else { continue }
                let towardsB = entities[a].relationships.filter { mappedA.destinations[$0.name] == typeB }
                let towardsA = entities[b].relationships.filter { mappedB.destinations[$0.name] == typeA }
                let candidatesA = towardsB.filter { !explicit.contains(key(typeA, $0.name)) }
                let candidatesB = towardsA.filter { !explicit.contains(key(typeB, $0.name)) }
                guard !candidatesA.isEmpty || !candidatesB.isEmpty else { continue }
                let pair = "\(entities[a].name) and \(entities[b].name)"
                if candidatesA.count < towardsB.count || candidatesB.count < towardsA.count {
                    unverified.insert("\(pair): implicit inverses beside an explicit inverse between the same entities [open, §5]")
                }
                guard candidatesA.count == 1, candidatesB.count == 1 else {
                    if !candidatesA.isEmpty, !candidatesB.isEmpty {
                        unverified.insert("\(pair): two or more relationship candidates on one side [open, §5]; given no inverse")
                    }
                    continue
                }
                let left = candidatesA[0], right = candidatesB[0]
                if left.isToMany, right.isToMany {
                    unverified.insert("\(pair): a to-many ↔ to-many implicit pair [open, §5]")
                }
                if let index = entities[a].relationships.firstIndex(where: { $0.name == left.name }) {
                    entities[a].relationships[index].inverseName = right.name
                    entities[a].relationships[index].inverseEntity = entities[b].name
                }
                if let index = entities[b].relationships.firstIndex(where: { $0.name == right.name }) {
                    entities[b].relationships[index].inverseName = left.name
                    entities[b].relationships[index].inverseEntity = entities[a].name
                }
            }
        }
    }
}

// MARK: - Containers

extension Reading {
    /// Every container built with a migration plan the files declare.
    mutating func containers() -> [SwiftContainer] {
        var containers: [SwiftContainer] = []
        for (position, finder) in containerCalls.enumerated() {
            for call in finder.planned {
                let scope = lexicalScope(of: Syntax(call.node))
                guard let plan = metatype(call.plan, scope: scope)?.declared, declares(plan, inheriting: "SchemaMigrationPlan") else { continue }
                let schema = call.schema.flatMap { metatype($0, scope: scope)?.declared }.flatMap { declares($0, inheriting: "VersionedSchema") ? $0 : nil }
                var models: [String] = []
                for element in call.elements {
                    guard let name = metatype(element, scope: scope)?.declared, index.types[name]?.isModel == true else { continue }
                    if !models.contains(name) { models.append(name) }
                }
                let model = models.isEmpty || models.count != call.elements.count ? nil
                    : build(name: SwiftDataReader.unversionedName, identifier: nil, roots: models, at: nil).model
                containers.append(SwiftContainer(plan: plan, schema: schema, model: model, models: models, location: location(call.node, file: position)))
            }
        }
        return containers
    }
}

// MARK: - Migration plans

extension Reading {
    /// Every `SchemaMigrationPlan`: its `schemas` and `stages` as written.
    mutating func plans() -> [SwiftMigrationPlan] {
        let types = index.types.values.filter { $0.kind != .protocol && index.inherits($0, "SchemaMigrationPlan") }.sorted { $0.qualifiedName < $1.qualifiedName }
        var plans: [SwiftMigrationPlan] = []
        for type in types { plans.append(plan(type)) }
        return plans
    }

    private mutating func plan(_ type: DeclarationIndex.TypeDecl) -> SwiftMigrationPlan {
        let at = location(Self.nameNode(type.node) ?? Syntax(type.node), file: type.file)
        var schemas: [String] = []
        var schemaLocations: [ChainPlanCore.SourceLocation?] = []
        if let member = staticMember("schemas", of: type) {
            if let list = member.expression.flatMap(Self.arrayElements) {
                for element in list {
                    if let schema = schemaType(element, scope: member.scope, file: member.file, owner: "schemas of '\(type.qualifiedName)'") {
                        schemas.append(schema)
                        schemaLocations.append(location(element, file: member.file))
                    }
                }
            } else {
                mapper.note(.unresolvedSwiftName("schemas of '\(type.qualifiedName)' is computed by code, not an array literal of 'Type.self'",
                                                 at: location(member.expression.map(Syntax.init) ?? member.node, file: member.file)))
            }
        } else {
            mapper.note(.unresolvedSwiftName("SchemaMigrationPlan '\(type.qualifiedName)' declares no static schemas in the files read", at: at))
        }
        var stages: [SwiftMigrationPlan.Stage] = []
        if let member = staticMember("stages", of: type) {
            if let list = member.expression.flatMap(Self.arrayElements) {
                for element in list {
                    if let stage = stage(element, scope: member.scope, file: member.file, plan: type, depth: 0) { stages.append(stage) }
                }
            } else {
                mapper.note(.unresolvedSwiftName("stages of '\(type.qualifiedName)' is computed by code, not an array literal",
                                                 at: location(member.expression.map(Syntax.init) ?? member.node, file: member.file)))
            }
        } else {
            mapper.note(.unresolvedSwiftName("SchemaMigrationPlan '\(type.qualifiedName)' declares no static stages in the files read", at: at))
        }
        var plan = SwiftMigrationPlan(name: type.qualifiedName, schemas: schemas, stages: stages, location: at)
        plan.schemaLocations = schemaLocations
        return plan
    }

    /// The VersionedSchema `X` of an `X.self` element.
    private mutating func schemaType(_ element: ExprSyntax, scope: DeclarationIndex.Scope, file: Int, owner: String) -> String? {
        guard let resolved = metatype(element, scope: scope) else {
            mapper.note(.unresolvedSwiftName("'\(element.trimmedText)' in \(owner) is not a 'Type.self' literal", at: location(element, file: file)))
            return nil
        }
        if declares(resolved.declared, inheriting: "VersionedSchema") { return resolved.declared }
        mapper.note(.unresolvedSwiftName("'\(resolved.path.joined(separator: "."))' in \(owner) is not a VersionedSchema of the files read", at: location(element, file: file)))
        return nil
    }

    /// A stage: `.lightweight(fromVersion:toVersion:)`, `.custom(fromVersion:toVersion:willMigrate:didMigrate:)`
    /// (also spelled `MigrationStage.…`), or the name of a static member that holds one.
    private mutating func stage(_ expression: ExprSyntax, scope: DeclarationIndex.Scope, file: Int, plan: DeclarationIndex.TypeDecl,
                                depth: Int) -> SwiftMigrationPlan.Stage? {
        if let call = expression.as(FunctionCallExprSyntax.self), let callee = call.calledExpression.as(MemberAccessExprSyntax.self),
           ["lightweight", "custom"].contains(callee.declName.baseName.text) {
            var from: String?, to: String?
            var will = false, did = false
            for argument in call.arguments {
                switch argument.label?.text {
                case "fromVersion"?: from = schemaType(argument.expression, scope: scope, file: file, owner: "a migration stage")
                case "toVersion"?: to = schemaType(argument.expression, scope: scope, file: file, owner: "a migration stage")
                case "willMigrate"?: will = !argument.expression.is(NilLiteralExprSyntax.self)
                case "didMigrate"?: did = !argument.expression.is(NilLiteralExprSyntax.self)
                default: break
                }
            }
            if call.trailingClosure != nil { did = true }
            guard let from, let to else { return nil }
            return SwiftMigrationPlan.Stage(kind: callee.declName.baseName.text == "custom" ? .custom : .lightweight, from: from, to: to,
                                            hasWillMigrate: will, hasDidMigrate: did, location: location(call, file: file))
        }
        if depth < 4, let path = DeclarationIndex.path(of: expression) {
            // A static member: `name`, `Self.name` or `Plan.name`.
            var owner: DeclarationIndex.TypeDecl? = plan
            if path.count > 1 {
                let base = Array(path.dropLast())
                if base == ["Self"] {
                    owner = plan
                } else if case .declared(let name) = index.resolve(path: base, in: scope) {
                    owner = index.types[name]
                } else {
                    owner = nil
                }
            }
            if let owner, let member = staticMember(path[path.count - 1], of: owner), let value = member.expression {
                return stage(value, scope: member.scope, file: member.file, plan: plan, depth: depth + 1)
            }
        }
        mapper.note(.unresolvedSwiftName("stage '\(expression.trimmedText)' is not a .lightweight or .custom stage chainplan can read",
                                         at: location(expression, file: file)))
        return nil
    }
}

/// Finds `ModelContainer(for: …)`, `.modelContainer(for: …)` and `Schema([…])` calls and the
/// `X.self` elements they name; for a container, its `migrationPlan:` and a
/// `Schema(versionedSchema: X.self)` given as `for:`.
private final class ContainerCallFinder: SyntaxVisitor {
    var calls: [(node: FunctionCallExprSyntax, name: String, elements: [ExprSyntax])] = []
    /// Containers given a `migrationPlan:`: the call, the plan's `X.self`, the schema's `X.self`
    /// when `for:` is `Schema(versionedSchema:)`, and the classes it lists otherwise.
    var planned: [(node: FunctionCallExprSyntax, plan: ExprSyntax, schema: ExprSyntax?, elements: [ExprSyntax])] = []

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = node.calledExpression
        let name: String?
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = callee.as(MemberAccessExprSyntax.self) {
            name = member.declName.baseName.text
        } else {
            name = nil
        }
        let arguments = Array(node.arguments)
        var elements: [ExprSyntax] = []
        switch name {
        case "ModelContainer"?, "modelContainer"?:
            guard let start = arguments.firstIndex(where: { $0.label?.text == "for" }) else { break }
            // `for:` is variadic (`for: A.self, B.self`) or an array (`for: [A.self]`).
            for (offset, argument) in arguments.enumerated() where offset >= start {
                if offset > start, argument.label != nil { break }
                if let array = argument.expression.as(ArrayExprSyntax.self) {
                    elements += array.elements.map(\.expression)
                } else if DeclarationIndex.metatypePath(argument.expression) != nil {
                    elements.append(argument.expression)
                }
            }
        case "Schema"?:
            if let first = arguments.first, first.label == nil, let array = first.expression.as(ArrayExprSyntax.self) {
                elements = array.elements.map(\.expression)
            }
        default:
            break
        }
        if let name, !elements.isEmpty { calls.append((node, name, elements)) }
        if name == "ModelContainer" || name == "modelContainer", let plan = arguments.first(where: { $0.label?.text == "migrationPlan" }) {
            var schema: ExprSyntax?
            if let first = arguments.first(where: { $0.label?.text == "for" })?.expression.as(FunctionCallExprSyntax.self),
               first.calledExpression.trimmedText == "Schema",
               let argument = first.arguments.first(where: { $0.label?.text == "versionedSchema" }) {
                schema = argument.expression
            }
            planned.append((node, plan.expression, schema, elements))
        }
        return .visitChildren
    }
}

import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import Foundation

/// What `chainplan textconv` prints: one model document (`<Version>.xcdatamodel/contents`) as
/// line-oriented text for `git diff`, one fact a line, so that a diff shows each changed fact on
/// a line of its own. Everything Core Data hashes is visible (names, types, optionality,
/// transient, external storage, preserve-after-deletion, derivations, destinations, inverses,
/// counts, ordering, parents, abstract, hash modifiers, uniqueness constraints), and so is
/// what a reviewer reads besides (defaults, validation, indexes, delete rules, class names,
/// renaming identifiers, user info, fetched properties, fetch requests, configurations).
///
/// Deterministic: entities, properties and configurations are in name order (Core Data's
/// order, UTF-16 code units), whatever order the file lists them in; the file's path, its
/// diagram positions and Xcode's tool versions are left out, so only the model's meaning can
/// change a line. Names are written as the model spells them and values quoted
/// (`default "0"`); every line is made inert on a terminal (`TerminalText`), so a name with a
/// newline stays on its line. Rendering is pure: the same value always gives the same bytes.
package struct TextconvReport: Sendable, Hashable, Encodable {
    /// One entity (or composite type): its heading's facts and the lines under it.
    package struct Entity: Sendable, Hashable, Encodable {
        /// The name as the model spells it.
        package var name: String
        /// The parent entity's name (`parentEntity`), nil for a root entity or a composite type.
        @ExplicitNull package var parent: String?
        /// `isAbstract="YES"`.
        package var abstract: Bool
        /// Base64 of the entity's 32-byte version hash, as `chainplan hash` prints it; nil when
        /// the model has no hashes.
        @ExplicitNull package var hash: String?
        /// True when the hash rests on a rule read only from Core Data's code.
        package var unverified: Bool
        /// The lines under the heading, without their indentation: entity facts, then
        /// attributes, relationships, fetched properties, constraints and indexes, each group
        /// in name order. A line that belongs to the one before it (a user info entry) starts
        /// with two spaces.
        package var lines: [String]

        /// An entity or composite type with its heading's facts and `lines` as they will print.
        package init(name: String, parent: String? = nil, abstract: Bool = false, hash: String? = nil,
                     unverified: Bool = false, lines: [String]) {
            self.name = name
            self.parent = parent
            self.abstract = abstract
            self.hash = hash
            self.unverified = unverified
            self.lines = lines
        }
    }

    /// A configuration and its member entities, in name order.
    package struct Configuration: Sendable, Hashable, Encodable {
        /// The configuration's name.
        package var name: String
        /// Its member entities, in name order.
        package var entities: [String]
        /// `usedWithCloudKit="YES"`: its entities are mirrored to CloudKit.
        package var usedWithCloudKit: Bool

        /// A configuration whose `entities` are already in name order.
        package init(name: String, entities: [String], usedWithCloudKit: Bool = false) {
            self.name = name
            self.entities = entities
            self.usedWithCloudKit = usedWithCloudKit
        }
    }

    /// The model's `versionChecksum` (base64), nil when it has no hashes.
    @ExplicitNull package var checksum: String?
    /// Why the model has no hashes (Core Data could not compute them either), else nil.
    @ExplicitNull package var hashFailure: String?
    /// `userDefinedModelVersionIdentifier`, when set.
    @ExplicitNull package var identifier: String?
    /// `usedWithCloudKit="YES"` on `<model>`: the Default configuration (every entity) is
    /// mirrored to CloudKit.
    package var usedWithCloudKit: Bool
    /// Why some hash is unverified, one reason each.
    package var unverified: [String]
    /// Findings about the model that Xcode would refuse it for (CP115–CP118), as
    /// `error: message [CPnnn]`, without their file location (a diff compares two copies).
    package var findings: [String]
    /// Entities in name order.
    package var entities: [Entity]
    /// Composite attribute types (`<composite>`), in name order; `parent`, `hash` are nil.
    package var composites: [Entity]
    /// Fetch request templates, one line each, in name order.
    package var fetchRequests: [String]
    /// Configurations in name order.
    package var configurations: [Configuration]

    /// A report from its parts, as they will print (the caller orders them).
    package init(checksum: String?, hashFailure: String? = nil, identifier: String? = nil, usedWithCloudKit: Bool = false, unverified: [String] = [],
                 findings: [String] = [], entities: [Entity], composites: [Entity] = [], fetchRequests: [String] = [],
                 configurations: [Configuration] = []) {
        self.checksum = checksum
        self.hashFailure = hashFailure
        self.identifier = identifier
        self.usedWithCloudKit = usedWithCloudKit
        self.unverified = unverified
        self.findings = findings
        self.entities = entities
        self.composites = composites
        self.fetchRequests = fetchRequests
        self.configurations = configurations
    }

    /// The report of `model`, with the entity hashes of `hashes` (what `ModelHasher.hash` gave
    /// for it) and the reader's `findings` about it.
    package init(model: ObjectModel, hashes: Result<ModelHashes, HashFailure>, findings: [Diagnostic] = []) {
        var computed: ModelHashes?
        var failure: String?
        switch hashes {
        case .success(let value): computed = value
        case .failure(let problem): failure = problem.message
        }
        self.init(
            checksum: computed?.checksum,
            hashFailure: failure,
            identifier: model.versionIdentifier,
            usedWithCloudKit: model.usedWithCloudKit,
            unverified: computed?.caveats.map(\.description) ?? [],
            findings: findings.map { "\($0.severity.rawValue): \($0.message) [\($0.code.rawValue)]" },
            entities: Self.inNameOrder(model.entities, \.name).map { entity in
                Entity(name: entity.name, parent: entity.parentEntity, abstract: entity.isAbstract,
                       hash: computed?.entities[entity.name]?.base64EncodedString(),
                       unverified: computed?.unverifiedEntities.contains(entity.name) ?? false,
                       lines: Self.lines(of: entity))
            },
            composites: Self.inNameOrder(model.composites, \.name).map { composite in
                Entity(name: composite.name, lines: Self.inNameOrder(composite.attributes, \.name).flatMap { Self.lines(of: $0) })
            },
            fetchRequests: Self.inNameOrder(model.fetchRequests, \.name).map { request in
                "fetch request \(request.name) -> \(request.entity ?? "?")" + (request.predicate.map { ", predicate \(Self.quoted($0))" } ?? "")
            },
            configurations: Self.inNameOrder(model.configurations, \.name).map { configuration in
                Configuration(name: configuration.name, entities: VersionHasher.sortedNames(configuration.memberEntities),
                              usedWithCloudKit: configuration.usedWithCloudKit)
            })
    }

    // MARK: - Text

    /// The text: the model's lines (checksum, identifier, CloudKit, unverified reasons, findings), then
    /// each entity's heading (`entity Book : Item  (hash …)`) with its lines indented under it,
    /// composite types, fetch requests and configurations, sections and entities separated by
    /// a blank line. Headings start at the margin, so `git diff` names the entity in each
    /// hunk's header without an `xfuncname` setting.
    package func text() -> String {
        var model: [String] = []
        if let checksum {
            model.append("model checksum \(checksum)")
        } else {
            model.append("model checksum none" + (hashFailure.map { ": \($0)" } ?? ""))
        }
        if let identifier { model.append("model identifier \(Self.quoted(identifier))") }
        if usedWithCloudKit { model.append("model used with CloudKit") }
        model += unverified.map { "model unverified: \($0)" }
        model += findings
        var blocks: [[String]] = [model]
        for entity in entities {
            var flags: [String] = []
            if entity.abstract { flags.append("abstract") }
            if let hash = entity.hash {
                flags.append("hash \(hash)")
                if entity.unverified { flags.append("unverified") }
            } else {
                flags.append("no hash")
            }
            let parent = entity.parent.map { " : \($0)" } ?? ""
            blocks.append(["entity \(entity.name)\(parent)  (\(flags.joined(separator: ", ")))"] + entity.lines.map { "  " + $0 })
        }
        for composite in composites {
            blocks.append(["composite \(composite.name)"] + composite.lines.map { "  " + $0 })
        }
        if !fetchRequests.isEmpty { blocks.append(fetchRequests) }
        if !configurations.isEmpty {
            blocks.append(configurations.map { configuration in
                "configuration \(configuration.name)" + (configuration.usedWithCloudKit ? " (used with CloudKit)" : "") + ": "
                    + (configuration.entities.isEmpty ? "no entities" : configuration.entities.joined(separator: ", "))
            })
        }
        return blocks.map { block in block.map { TerminalText.safe($0) + "\n" }.joined() }.joined(separator: "\n")
    }

    // MARK: - JSON

    /// The same facts as one JSON document (sorted keys, chainplan's envelope).
    package func jsonData() -> Data {
        JSONEnvelope.encode(self)
    }

    // MARK: - Lines

    /// `elements` sorted by `name` in Core Data's order (UTF-16 code units); equal names keep
    /// their file order, so a model that declares a name twice still renders the same way.
    static func inNameOrder<Element>(_ elements: [Element], _ name: (Element) -> String) -> [Element] {
        let names = elements.map(name)
        return elements.indices.sorted { left, right in
            names[left] == names[right] ? left < right : names[left].utf16.lexicographicallyPrecedes(names[right].utf16)
        }.map { elements[$0] }
    }

    /// A value as written in the model, in double quotes (`QuotedText`, bidirectional
    /// controls escaped).
    static func quoted(_ value: String) -> String {
        QuotedText.quote(value, bidiVisible: true)
    }

    /// An entity's lines: its own facts, then its declared (not inherited) properties,
    /// constraints and indexes.
    static func lines(of entity: ChainPlanReaders.Entity) -> [String] {
        var lines: [String] = []
        switch (entity.representedClassName, entity.codeGenerationType) {
        case (let name?, let codegen?): lines.append("class \(name), codegen \(codegen)")
        case (let name?, nil): lines.append("class \(name)")
        case (nil, let codegen?): lines.append("codegen \(codegen)")
        case (nil, nil): break
        }
        if let renaming = entity.renamingIdentifier, !renaming.isEmpty { lines.append("renaming identifier \(quoted(renaming))") }
        if let modifier = entity.versionHashModifier { lines.append("hash modifier \(quoted(modifier))") }
        lines += userInfoLines(entity.userInfo, indented: false)
        lines += inNameOrder(entity.attributes, \.name).flatMap { Self.lines(of: $0) }
        lines += inNameOrder(entity.relationships, \.name).flatMap { Self.lines(of: $0) }
        lines += inNameOrder(entity.fetchedProperties, \.name).map { fetched in
            "fetched property \(fetched.name) -> \(fetched.entity ?? "?")" + (fetched.predicate.map { ", predicate \(quoted($0))" } ?? "")
        }
        // Core Data hashes each constraint's names joined with "." and sorts the joined strings:
        // the order of the constraints is no fact, the order within one is.
        lines += inNameOrder(entity.uniquenessConstraints, { $0.joined(separator: ".") }).map { "unique \($0.joined(separator: ", "))" }
        lines += inNameOrder(entity.fetchIndexes, \.name).map { index in
            "fetch index \(index.name): " + index.elements.map { element in
                var text = element.property ?? "expression \(quoted(element.expression ?? ""))"
                if !element.ascending { text += " descending" }
                if let type = element.type, type != "Binary" { text += " (\(type))" }
                return text
            }.joined(separator: ", ")
        }
        lines += entity.compoundIndexes.map { "compound index \($0.joined(separator: ", "))" }.sorted()
        return lines
    }

    /// `attribute title: String, optional, default "x", …` and its user info, one line each.
    static func lines(of attribute: Attribute) -> [String] {
        var facts: [String] = []
        if attribute.type == .composite {
            facts.append("Composite" + (attribute.compositeName.map { " \($0)" } ?? ""))
        } else {
            facts.append(attribute.type.xmlValue)
        }
        if attribute.isOptional { facts.append("optional") }
        if attribute.isTransient { facts.append("transient") }
        if attribute.isIndexed { facts.append("indexed") }
        if let value = attribute.defaultValueString { facts.append("default \(quoted(value))") }
        if let value = attribute.defaultDateTimeInterval { facts.append("default \(date(value))") }
        if let value = attribute.minValueString { facts.append("min \(quoted(value))") }
        if let value = attribute.maxValueString { facts.append("max \(quoted(value))") }
        if let value = attribute.minDateTimeInterval { facts.append("min \(date(value))") }
        if let value = attribute.maxDateTimeInterval { facts.append("max \(date(value))") }
        if let value = attribute.regularExpressionString { facts.append("regex \(quoted(value))") }
        if attribute.isDerived || attribute.derivationExpression != nil {
            facts.append("derived" + (attribute.derivationExpression.map { " \(quoted($0))" } ?? ""))
        }
        if attribute.allowsExternalBinaryDataStorage { facts.append("external storage") }
        if attribute.isPreservedAfterDeletion { facts.append("preserved after deletion") }
        if let value = attribute.valueTransformerName { facts.append("transformer \(value)") }
        if let value = attribute.customClassName { facts.append("class \(value)") }
        if attribute.usesScalarValueType == true { facts.append("scalar") }
        if let renaming = attribute.renamingIdentifier, !renaming.isEmpty { facts.append("renaming identifier \(quoted(renaming))") }
        if let modifier = attribute.versionHashModifier { facts.append("hash modifier \(quoted(modifier))") }
        return ["attribute \(attribute.name): " + facts.joined(separator: ", ")] + userInfoLines(attribute.userInfo, indented: true)
    }

    /// `relationship items -> Item, to-many, ordered, optional, inverse order, delete cascade`
    /// and its user info. A count is shown when it differs from what Core Data hashes for an
    /// unwritten one (minimum 0; maximum 1 to-one, 0 to-many), so every hashed count is visible.
    static func lines(of relationship: Relationship) -> [String] {
        var facts: [String] = [relationship.isToMany ? "to-many" : "to-one"]
        if relationship.isOrdered { facts.append("ordered") }
        if relationship.isOptional { facts.append("optional") }
        if relationship.isTransient { facts.append("transient") }
        if let inverse = relationship.inverseName {
            let entity = relationship.inverseEntity.flatMap { $0 == relationship.destinationEntity ? nil : $0 }
            facts.append("inverse " + (entity.map { "\($0)." } ?? "") + inverse)
        }
        facts.append("delete \(relationship.deletionRule.rawValue.lowercased())")
        if relationship.minCount != 0 { facts.append("min \(relationship.minCount)") }
        if relationship.hasWrittenMaxCount, relationship.maxCount != (relationship.isToMany ? 0 : 1) {
            facts.append("max \(relationship.maxCount)")
        }
        if let renaming = relationship.renamingIdentifier, !renaming.isEmpty { facts.append("renaming identifier \(quoted(renaming))") }
        if let modifier = relationship.versionHashModifier { facts.append("hash modifier \(quoted(modifier))") }
        return ["relationship \(relationship.name) -> \(relationship.destinationEntity ?? "?"), " + facts.joined(separator: ", ")]
            + userInfoLines(relationship.userInfo, indented: true)
    }

    /// `user info key = "value"`, one line per entry in key order; `indented` under a property.
    static func userInfoLines(_ entries: [UserInfoEntry], indented: Bool) -> [String] {
        inNameOrder(entries, \.key).map { (indented ? "  " : "") + "user info \(quoted($0.key)) = \(quoted($0.value))" }
    }

    /// A date written as seconds since 2001-01-01 (`defaultDateTimeInterval`): ISO 8601 in UTC
    /// when it is a whole number of seconds, else the seconds as written.
    static func date(_ interval: String) -> String {
        guard let seconds = Int(interval), abs(seconds) < 1 << 40 else { return "\(quoted(interval)) s after 2001-01-01" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSinceReferenceDate: TimeInterval(seconds)))
    }
}

import ChainPlanInference
import ChainPlanPlanning
import ChainPlanReaders
/// A comparable summary of a store's structure, or of the structure a model version implies.
///
/// Features (strings, compared as sets):
/// - `E:<Entity>:<Parent>` per entity (`Z_PRIMARYKEY` names and `Z_SUPER`; entities numbered
///   16000 and above are Core Data's own and ignored);
/// - `T:<TABLE>` per entity table and `C:<TABLE>.<column>` per column other than `Z_PK`,
///   `Z_ENT`, `Z_OPT`;
/// - `J:<A>|<B>` per many-to-many join table (the two relationship names, sorted) and
///   `JF:<A>|<B>:<X>` per ordering column.
/// Column names are normalised tolerantly: the `Z` prefix and entity numbers are removed
/// and trailing digits stripped (`ZTEXT1` → `TEXT`, `Z6_MESSAGE` → `ENT_MESSAGE`,
/// `Z_FOK_17USERS` → `FOK_USERS`), because collision suffixes and `Z_ENT` numbers are not
/// predictable from one model alone. The normalisation is applied to both sides alike.
package struct StoreFingerprint: Sendable, Hashable {
    /// The feature set.
    package var features: Set<String>
    /// A readable name per feature (an entity name, `ZCAR.ZCOLOR`, a join table name).
    package var labels: [String: String]
    /// Entity names each feature belongs to (used to compare only a model's part of a store
    /// written with a merged model).
    var owners: [String: Set<String>]
    /// Table names (upper-cased) per `T:`/`C:` feature.
    var tableOf: [String: String]
    /// For a model: renaming identifier → entity name, for entities whose renaming
    /// identifier differs from their name. A store migrated across such a rename keeps the
    /// old name in `Z_PRIMARYKEY` (CoreDataPlus `SampleModel_V2.sqlite` still says
    /// `ExpensiveSportCar` for `LuxuryCar`), so the old name counts as the new one.
    package var entityAliases: [String: String] = [:]

    private init(features: Set<String>, labels: [String: String], owners: [String: Set<String>], tableOf: [String: String]) {
        self.features = features
        self.labels = labels
        self.owners = owners
        self.tableOf = tableOf
    }

    /// The structure Core Data creates for `model`.
    package init(model: ObjectModel) {
        self.init(layout: StoreLayout(model: model))
        entityAliases = EntityAliases.of(model)
    }

    /// The structure of a layout.
    package init(layout: StoreLayout) {
        var builder = Builder()
        let byNumber = Dictionary(layout.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        for slot in layout.entities {
            builder.entity(slot.name, parent: byNumber[slot.superNumber] ?? "")
        }
        for table in layout.tables {
            builder.table(table.name, owners: Set(table.entities))
            for column in table.columns where !Self.specialColumns.contains(column.name.uppercased()) {
                builder.column(column.name, of: table.name, owners: Set(table.entities))
            }
        }
        for join in layout.joinTables {
            builder.join(join.name, ends: [join.first.column, join.second.column],
                         orderColumns: [join.first.orderColumn, join.second.orderColumn].compactMap { $0 },
                         owners: [join.first.entity, join.second.entity])
        }
        self = builder.fingerprint
    }

    /// The structure of a store.
    package init(store: StoreMetadata) {
        var builder = Builder()
        let names = Dictionary(store.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        for entity in store.entities where !entity.isSystemEntity {
            let parent = entity.superNumber == 0 ? "" : (names[entity.superNumber] ?? "?")
            builder.entity(entity.name, parent: parent)
        }
        let rootMembers = Self.membersByRootTable(store.entities)
        for table in store.tables {
            switch table.kind {
            case .entity:
                let owners = rootMembers[table.name.uppercased()] ?? []
                builder.table(table.name, owners: owners)
                // Columns a deferred migration renamed are not the model's (reference §7.3).
                for column in table.columns where !Self.specialColumns.contains(column.name.uppercased())
                    && !column.name.uppercased().hasPrefix(PendingDeferredWork.prefix) {
                    builder.column(column.name, of: table.name, owners: owners)
                }
            case .join:
                var ends: [String] = []
                var orders: [String] = []
                var owners: Set<String> = []
                for column in table.columns {
                    let upper = column.name.uppercased()
                    if upper.hasPrefix("Z_FOK_") {
                        orders.append(column.name)
                    } else {
                        ends.append(column.name)
                        if let number = Self.entityNumber(inJoinColumn: upper), let name = names[number] { owners.insert(name) }
                    }
                }
                builder.join(table.name, ends: ends, orderColumns: orders, owners: owners)
            case .coreData, .other:
                continue
            }
        }
        self = builder.fingerprint
    }

    /// Jaccard similarity |A ∩ B| / |A ∪ B| in [0, 1] (1 for two empty sets). `other` is
    /// read through this fingerprint's entity aliases.
    package func similarity(to other: StoreFingerprint) -> Double {
        let other = other.aliased(entityAliases)
        let union = features.union(other.features).count
        guard union > 0 else { return 1 }
        return Double(features.intersection(other.features).count) / Double(union)
    }

    /// This store fingerprint reduced to the features that belong to `model`'s entities and
    /// tables: entities it names, tables it implies, join tables between its entities.
    func restricted(to model: StoreFingerprint) -> StoreFingerprint {
        let modelEntities = model.entityNames
        let modelTables = Set(model.tableOf.values)
        var copy = aliased(model.entityAliases)
        let source = copy
        copy.features = source.features.filter { feature in
            if feature.hasPrefix("E:") { return modelEntities.contains(Self.entityName(of: feature)) }
            if let table = source.tableOf[feature] { return modelTables.contains(table) }
            let featureOwners = source.owners[feature] ?? []
            return !featureOwners.isEmpty && featureOwners.isSubset(of: modelEntities)
        }
        return copy
    }

    /// Entity names in the fingerprint.
    package var entityNames: Set<String> {
        Set(features.filter { $0.hasPrefix("E:") }.map(Self.entityName(of:)))
    }

    // MARK: - Differences

    /// What `self` (expected, from a model) has that `store` lacks, and the reverse.
    package func differences(from store: StoreFingerprint) -> StructuralDifferences {
        let store = store.aliased(entityAliases)
        // Columns of a table missing altogether are not listed one by one.
        let missingTables = Set(features.subtracting(store.features).filter { $0.hasPrefix("T:") }.compactMap { tableOf[$0] })
        let extraTables = Set(store.features.subtracting(features).filter { $0.hasPrefix("T:") }.compactMap { store.tableOf[$0] })
        let missing = features.subtracting(store.features).filter { feature in
            !(feature.hasPrefix("C:") && tableOf[feature].map(missingTables.contains) == true)
        }
        let extra = store.features.subtracting(features).filter { feature in
            !(feature.hasPrefix("C:") && store.tableOf[feature].map(extraTables.contains) == true)
        }
        func labels(_ set: Set<String>, _ prefixes: [String], _ source: StoreFingerprint) -> [String] {
            set.filter { feature in prefixes.contains { feature.hasPrefix($0) } }
                .map { source.labels[$0] ?? $0 }
                .sorted()
        }
        let missingEntityNames = Set(missing.filter { $0.hasPrefix("E:") }.map(Self.entityName(of:)))
        let extraEntityNames = Set(extra.filter { $0.hasPrefix("E:") }.map(Self.entityName(of:)))
        let reparented = missingEntityNames.intersection(extraEntityNames)
        return StructuralDifferences(
            missingEntities: missingEntityNames.subtracting(reparented).sorted(),
            extraEntities: extraEntityNames.subtracting(reparented).sorted(),
            entitiesWithOtherParent: reparented.sorted(),
            missingTables: labels(missing, ["T:"], self),
            extraTables: labels(extra, ["T:"], store),
            missingColumns: labels(missing, ["C:"], self),
            extraColumns: labels(extra, ["C:"], store),
            missingJoinTables: Array(Set(labels(missing, ["J:", "JF:"], self))).sorted(),
            extraJoinTables: Array(Set(labels(extra, ["J:", "JF:"], store))).sorted())
    }

    /// This (store) fingerprint with entities renamed by `aliases` (old name → new name);
    /// an alias is skipped when the new name is already present.
    func aliased(_ aliases: [String: String]) -> StoreFingerprint {
        let renames = EntityAliases.applicable(aliases, present: entityNames)
        guard !renames.isEmpty else { return self }
        let tableRenames = Dictionary(renames.map { ("Z" + $0.key.uppercased(), "Z" + $0.value.uppercased()) },
                                      uniquingKeysWith: { first, _ in first })
        func rename(_ feature: String) -> String {
            if feature.hasPrefix("E:") {
                let parts = feature.dropFirst(2).split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let name = parts.first ?? ""
                let parent = parts.count > 1 ? parts[1] : ""
                return "E:\(renames[name] ?? name):\(renames[parent] ?? parent)"
            }
            if let table = tableOf[feature], let renamed = tableRenames[table] {
                if feature.hasPrefix("T:") { return "T:" + renamed }
                if feature.hasPrefix("C:") { return "C:" + renamed + feature.dropFirst(2 + table.count) }
            }
            return feature
        }
        var copy = StoreFingerprint(features: [], labels: [:], owners: [:], tableOf: [:])
        copy.entityAliases = entityAliases
        for feature in features {
            let renamed = rename(feature)
            copy.features.insert(renamed)
            if copy.labels[renamed] == nil, let label = labels[feature] { copy.labels[renamed] = label }
            copy.owners[renamed, default: []].formUnion((owners[feature] ?? []).map { renames[$0] ?? $0 })
            if let table = tableOf[feature] { copy.tableOf[renamed] = tableRenames[table] ?? table }
        }
        return copy
    }

    // MARK: - Normalisation

    static let specialColumns: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]

    /// Tolerant column name (see the type's documentation).
    static func normalizedColumn(_ name: String) -> String {
        let upper = name.uppercased()
        if upper.hasPrefix("Z_FOK_") {
            return "FOK_" + stripTrailingDigits(stripLeadingDigits(String(upper.dropFirst(6))))
        }
        if upper.hasPrefix("Z_") {
            return stripTrailingDigits(stripLeadingDigits(String(upper.dropFirst(2))))
        }
        if upper.hasPrefix("Z") {
            let rest = upper.dropFirst()
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            if !digits.isEmpty, rest.dropFirst(digits.count).first == "_" {
                return "ENT_" + stripTrailingDigits(String(rest.dropFirst(digits.count + 1)))
            }
            return stripTrailingDigits(String(rest))
        }
        return stripTrailingDigits(upper)
    }

    static func stripTrailingDigits(_ text: String) -> String {
        var result = Substring(text)
        while let last = result.last, last.isASCII, last.isNumber { result = result.dropLast() }
        return String(result)
    }

    static func stripLeadingDigits(_ text: String) -> String {
        String(text.drop { $0.isASCII && $0.isNumber })
    }

    /// `Z_<n>…` → n.
    static func entityNumber(inJoinColumn upper: String) -> Int? {
        guard upper.hasPrefix("Z_") else { return nil }
        return Int(upper.dropFirst(2).prefix { $0.isASCII && $0.isNumber })
    }

    static func entityName(of feature: String) -> String {
        // "E:<name>:<parent>"; entity names cannot contain ':'.
        let body = feature.dropFirst(2)
        return String(body.prefix { $0 != ":" })
    }

    /// Upper-cased root table name → entity names of that hierarchy.
    static func membersByRootTable(_ entities: [StoreEntity]) -> [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for entity in entities where !entity.isSystemEntity {
            let root = StoreReader.rootName(of: entity, in: entities)
            result["Z" + root.uppercased(), default: []].insert(entity.name)
        }
        return result
    }

    private struct Builder {
        var fingerprint = StoreFingerprint(features: [], labels: [:], owners: [:], tableOf: [:])

        mutating func entity(_ name: String, parent: String) {
            add("E:\(name):\(parent)", label: name, owners: [name], table: nil)
        }

        mutating func table(_ name: String, owners: Set<String>) {
            add("T:" + name.uppercased(), label: name, owners: owners, table: name.uppercased())
        }

        mutating func column(_ name: String, of table: String, owners: Set<String>) {
            add("C:\(table.uppercased()).\(StoreFingerprint.normalizedColumn(name))", label: "\(table).\(name)",
                owners: owners, table: table.uppercased())
        }

        mutating func join(_ name: String, ends: [String], orderColumns: [String], owners: Set<String>) {
            let pair = ends.map(StoreFingerprint.normalizedColumn).sorted().joined(separator: "|")
            add("J:" + pair, label: name, owners: owners, table: nil)
            for column in orderColumns {
                add("JF:\(pair):\(StoreFingerprint.normalizedColumn(column))", label: "\(name).\(column)", owners: owners, table: nil)
            }
        }

        private mutating func add(_ feature: String, label: String, owners: Set<String>, table: String?) {
            fingerprint.features.insert(feature)
            if fingerprint.labels[feature] == nil { fingerprint.labels[feature] = label }
            fingerprint.owners[feature, default: []].formUnion(owners)
            if let table { fingerprint.tableOf[feature] = table }
        }
    }
}

/// How a store's structure differs from a model version's (names as in the model's
/// expected layout for "missing", as in the store for "extra").
package struct StructuralDifferences: Sendable, Hashable {
    package var missingEntities: [String]
    package var extraEntities: [String]
    /// Entities present on both sides with a different parent.
    package var entitiesWithOtherParent: [String]
    package var missingTables: [String]
    package var extraTables: [String]
    package var missingColumns: [String]
    package var extraColumns: [String]
    package var missingJoinTables: [String]
    package var extraJoinTables: [String]

    package init(missingEntities: [String] = [], extraEntities: [String] = [], entitiesWithOtherParent: [String] = [],
                missingTables: [String] = [], extraTables: [String] = [], missingColumns: [String] = [],
                extraColumns: [String] = [], missingJoinTables: [String] = [], extraJoinTables: [String] = []) {
        self.missingEntities = missingEntities
        self.extraEntities = extraEntities
        self.entitiesWithOtherParent = entitiesWithOtherParent
        self.missingTables = missingTables
        self.extraTables = extraTables
        self.missingColumns = missingColumns
        self.extraColumns = extraColumns
        self.missingJoinTables = missingJoinTables
        self.extraJoinTables = extraJoinTables
    }

    package var isEmpty: Bool {
        missingEntities.isEmpty && extraEntities.isEmpty && entitiesWithOtherParent.isEmpty
            && missingTables.isEmpty && extraTables.isEmpty && missingColumns.isEmpty && extraColumns.isEmpty
            && missingJoinTables.isEmpty && extraJoinTables.isEmpty
    }

    /// A phrase listing the differences, at most `limit` names per kind
    /// (e.g. "the store lacks entities 'A', 'B'; has extra columns 'ZCAR.ZCOLOR'").
    package func summary(limit: Int = 5) -> String {
        func list(_ names: [String]) -> String {
            let shown = names.prefix(limit).map { "'\($0)'" }.joined(separator: ", ")
            return names.count > limit ? shown + " and \(names.count - limit) more" : shown
        }
        var parts: [String] = []
        if !missingEntities.isEmpty { parts.append("lacks entities \(list(missingEntities))") }
        if !extraEntities.isEmpty { parts.append("has extra entities \(list(extraEntities))") }
        if !entitiesWithOtherParent.isEmpty { parts.append("has other parents for \(list(entitiesWithOtherParent))") }
        if !missingColumns.isEmpty { parts.append("lacks columns \(list(missingColumns))") }
        if !extraColumns.isEmpty { parts.append("has extra columns \(list(extraColumns))") }
        if !missingJoinTables.isEmpty { parts.append("lacks join tables \(list(missingJoinTables))") }
        if !extraJoinTables.isEmpty { parts.append("has extra join tables \(list(extraJoinTables))") }
        if parts.isEmpty, !missingTables.isEmpty { parts.append("lacks tables \(list(missingTables))") }
        if parts.isEmpty, !extraTables.isEmpty { parts.append("has extra tables \(list(extraTables))") }
        return parts.isEmpty ? "no structural difference" : "the store " + parts.joined(separator: "; ")
    }
}

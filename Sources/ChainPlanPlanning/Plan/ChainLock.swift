import Foundation

/// `chain.lock`: fingerprints of the model versions that have shipped.
///
/// A store in a user's hands was made by the version as it shipped; a version edited after
/// release no longer matches those stores, and Core Data fails to open or migrate them. The lock
/// records, per shipped version, a fingerprint of every migration-relevant field (the fields that
/// feed Core Data's version hashes, renaming identifiers, and what the classifier reads besides:
/// default values, ordering, uniqueness constraints), per entity and per property, so that
/// `validate` can say exactly what changed (CP401) or disappeared (CP402).
///
/// Fingerprints come from the parsed model, so whitespace, XML attribute order and Xcode's
/// tool-version attributes do not change them. The file is text, sorted, one line per item;
/// after an entity's or property's fingerprint, four hex digits per field (see ``entityFields``
/// and ``attributeFields``) let CP401 say which field changed:
///
/// ```
/// version "Model 2" 9f0c4e1a7d2b3c51
///   entity "Item" 41a7c0e2d9b8f613 1a2b3c4d5e6f7a8b9c0d
///   property "Item" "name" 0b1c2d3e4f5a6b7c 0a1b2c3d4e5f6a7b8c9d0e1f2a3b
/// ```
///
/// Names are quoted with escapes, bidirectional controls included (`\u{202E}`), so the file reads
/// as it is in every viewer, like every other human-facing output; reading decodes the escapes.
public struct ChainLock: Sendable, Hashable {
    public static let fileName = "chain.lock"
    public static let maxBytes = 64 << 20

    /// Fingerprints of one version.
    public struct VersionPrint: Sendable, Hashable {
        public var digest: String
        public var entities: [String: String]
        /// Keyed by entity name, then property name.
        public var properties: [String: [String: String]]
        /// Per entity, and per entity and property: four hex digits per field, in the order of
        /// ``entityFields``, ``attributeFields`` or ``relationshipFields`` (empty in older locks).
        public var entityFields: [String: String] = [:]
        public var propertyFields: [String: [String: String]] = [:]
    }

    /// The fields fingerprinted one by one, in lock order, as CP401 names them.
    public static let entityFields = ["parent", "abstract", "version hash modifier", "renaming identifier", "uniqueness constraints"]
    public static let attributeFields = ["kind", "optional", "transient", "version hash modifier", "type", "renaming identifier", "default value"]
    public static let relationshipFields = ["kind", "optional", "transient", "version hash modifier", "destination", "to-many",
                                            "minimum count", "maximum count", "delete rule", "inverse", "renaming identifier", "ordered"]

    /// Four hex digits per (field, value), concatenated.
    static func fieldDigests(_ fields: [(String, String?)]) -> String {
        fields.map { String(digest("\($0.0)=\(MigrationSignature.quote($0.1))").prefix(4)) }.joined()
    }

    /// The fields whose digests differ (`kind` alone when the kind changed); empty when unknown.
    static func changedFields(_ before: String?, _ after: String?, names: [String]) -> [String] {
        guard let before, let after, !before.isEmpty, !after.isEmpty else { return [] }
        let old = Array(before), new = Array(after)
        func field(_ index: Int, _ digits: [Character]) -> ArraySlice<Character> {
            digits.count >= index * 4 + 4 ? digits[(index * 4)..<(index * 4 + 4)] : []
        }
        if names.first == "kind", field(0, old) != field(0, new) { return ["kind"] }
        return names.indices.filter { field($0, old) != field($0, new) }.map { names[$0] }
    }

    /// Locked versions in file order, with the line each starts on (for findings).
    public var versions: [(name: String, print: VersionPrint, line: Int)]

    public static func == (lhs: ChainLock, rhs: ChainLock) -> Bool {
        lhs.versions.map(\.name) == rhs.versions.map(\.name) && lhs.versions.map(\.print) == rhs.versions.map(\.print)
    }

    public func hash(into hasher: inout Hasher) {
        for version in versions { hasher.combine(version.name); hasher.combine(version.print) }
    }

    public init(versions: [(name: String, print: VersionPrint, line: Int)]) {
        self.versions = versions
    }

    /// The lock of `names` (in that order) from `bundle`; versions the bundle cannot read are left out.
    public init(bundle: ModelBundle, versions names: [String]) {
        var versions: [(String, VersionPrint, Int)] = []
        for name in names {
            guard let model = bundle.version(named: name)?.model else { continue }
            versions.append((name, Self.fingerprint(model), 0))
        }
        self.versions = versions
    }

    // MARK: Fingerprints

    /// The canonical line of every entity and property, fingerprinted.
    public static func fingerprint(_ model: ObjectModel) -> VersionPrint {
        let signature = MigrationSignature(model)
        var entities: [String: String] = [:]
        var properties: [String: [String: String]] = [:]
        var entityFields: [String: String] = [:]
        var propertyFields: [String: [String: String]] = [:]
        for entity in model.entities where signature.entities[entity.name] != nil {
            let entitySignature = signature.entities[entity.name]!
            let unique = entity.uniquenessConstraints.map { $0.sorted().joined(separator: ",") }.sorted().joined(separator: ";")
            entities[entity.name] = digest(entitySignature.canonicalHeader + " id=" + MigrationSignature.quote(signature.renamingIdentifiers.entities[entity.name])
                                           + " unique=" + MigrationSignature.quote(unique))
            entityFields[entity.name] = fieldDigests([
                ("parent", entitySignature.parentEntity), ("abstract", entitySignature.isAbstract ? "1" : "0"),
                ("version hash modifier", entitySignature.versionHashModifier),
                ("renaming identifier", signature.renamingIdentifiers.entities[entity.name]), ("uniqueness constraints", unique),
            ])
            var lines: [String: String] = [:]
            var fields: [String: String] = [:]
            let ids = signature.renamingIdentifiers.properties[entity.name] ?? [:]
            for (name, property) in entitySignature.properties {
                var line = property.canonicalText + " id=" + MigrationSignature.quote(ids[name])
                var values: [(String, String?)] = [
                    ("optional", property.isOptional ? "1" : "0"), ("transient", property.isTransient ? "1" : "0"),
                    ("version hash modifier", property.versionHashModifier),
                ]
                switch property.kind {
                case .attribute(let type):
                    values.insert(("kind", "attribute"), at: 0)
                    values.append(("type", type.xmlValue))
                case .relationship(let relationship):
                    values.insert(("kind", "relationship"), at: 0)
                    values += [("destination", relationship.destinationEntity), ("to-many", relationship.isToMany ? "1" : "0"),
                               ("minimum count", "\(relationship.minCount)"), ("maximum count", "\(relationship.maxCount)"),
                               ("delete rule", relationship.deletionRule.rawValue), ("inverse", relationship.inverseName)]
                }
                values.append(("renaming identifier", ids[name]))
                if let attribute = entity.attributes.first(where: { $0.name == name }) {
                    let value = attribute.defaultValueString ?? attribute.defaultDateTimeInterval
                    line += " default=" + MigrationSignature.quote(value)
                    values.append(("default value", value))
                } else if let relationship = entity.relationships.first(where: { $0.name == name }) {
                    line += " ordered=" + (relationship.isOrdered ? "1" : "0")
                    values.append(("ordered", relationship.isOrdered ? "1" : "0"))
                }
                lines[name] = digest(line)
                fields[name] = fieldDigests(values)
            }
            properties[entity.name] = lines
            propertyFields[entity.name] = fields
        }
        var all = ""
        for name in entities.keys.sorted() {
            all += "e \(MigrationSignature.quote(name)) \(entities[name]!)\n"
            for property in (properties[name] ?? [:]).keys.sorted() { all += "p \(MigrationSignature.quote(property)) \(properties[name]![property]!)\n" }
        }
        return VersionPrint(digest: digest(all), entities: entities, properties: properties, entityFields: entityFields, propertyFields: propertyFields)
    }

    /// 64-bit FNV-1a of the UTF-8 bytes, as 16 hex digits: stable across machines and releases.
    package static func digest(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: Text

    public var text: String {
        var out = """
            # chain.lock: fingerprints of the shipped model versions, written by `chainplan lock`.
            # Commit it. `chainplan validate` reports CP401 when a locked version changes and CP402
            # when one is missing. Regenerate it only when a new version ships.

            """
        func quote(_ name: String) -> String { MigrationSignature.quote(name, bidiVisible: true) }
        func fields(_ digits: String?) -> String { digits.map { $0.isEmpty ? "" : " " + $0 } ?? "" }
        for (name, print, _) in versions {
            out += "version \(quote(name)) \(print.digest)\n"
            for entity in print.entities.keys.sorted() {
                out += "  entity \(quote(entity)) \(print.entities[entity]!)\(fields(print.entityFields[entity]))\n"
                let properties = print.properties[entity] ?? [:]
                for property in properties.keys.sorted() {
                    out += "  property \(quote(entity)) \(quote(property)) \(properties[property]!)\(fields(print.propertyFields[entity]?[property]))\n"
                }
            }
        }
        return out
    }

    /// Malformed lines reported one by one; the rest are counted in a closing finding.
    static let listedProblems = 20

    /// Reads a lock; every malformed line is a CP403 at its line (the first `listedProblems`,
    /// then one finding saying how many more there are).
    public static func read(_ text: String, file: String) -> (ChainLock?, [Diagnostic]) {
        var versions: [(String, VersionPrint, Int)] = []
        var diagnostics = FindingList(.unreadableLock, limit: listedProblems)
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let at = SourceLocation(file: file, line: index + 1, column: 1)
            guard let (words, rest) = Self.split(line), words.count >= 1 else {
                diagnostics.add(Diagnostic(.unreadableLock, "cannot read this line of the lock", at: at))
                continue
            }
            // The fingerprint, then (entities and properties) optionally four hex digits per field.
            let parts = rest.split(separator: " ").map(String.init)
            let digest = parts.first ?? ""
            let fields = parts.count == 2 ? parts[1] : ""
            let digestOK = digest.count == 16 && digest.allSatisfy(\.isHexDigit) && parts.count <= 2
                && fields.count % 4 == 0 && fields.allSatisfy(\.isHexDigit)
            switch (words.first, words.count) {
            case ("version"?, 2) where digestOK && parts.count == 1:
                versions.append((words[1], VersionPrint(digest: digest, entities: [:], properties: [:]), index + 1))
            case ("entity"?, 2) where digestOK && !versions.isEmpty:
                versions[versions.count - 1].1.entities[words[1]] = digest
                if !fields.isEmpty { versions[versions.count - 1].1.entityFields[words[1]] = fields }
            case ("property"?, 3) where digestOK && !versions.isEmpty:
                versions[versions.count - 1].1.properties[words[1], default: [:]][words[2]] = digest
                if !fields.isEmpty { versions[versions.count - 1].1.propertyFields[words[1], default: [:]][words[2]] = fields }
            default:
                diagnostics.add(Diagnostic(.unreadableLock, "cannot read this line of the lock: expected 'version \"Name\" <16 hex digits>', "
                                           + "'entity …' or 'property …' after a version", at: at))
            }
        }
        let problems = diagnostics.finished(at: SourceLocation(file: file))
        return (problems.isEmpty ? ChainLock(versions: versions) : nil, problems)
    }

    /// `word "quoted" "quoted" rest` → (["word", "quoted", "quoted"], "rest"), or nil.
    static func split(_ line: String) -> ([String], String)? {
        var words: [String] = []
        var scalars = Substring(line).unicodeScalars[...]
        func skipSpaces() { while let first = scalars.first, first == " " { scalars.removeFirst() } }
        while let first = scalars.first, first != "\"" && first != " " {
            var word = ""
            while let c = scalars.first, c != " " { word.unicodeScalars.append(c); scalars.removeFirst() }
            if words.isEmpty { words.append(word) } else { return scalars.isEmpty ? (words, word) : nil }
            skipSpaces()
        }
        while scalars.first == "\"" {
            scalars.removeFirst()
            var value = ""
            while true {
                guard let c = scalars.first else { return nil }
                scalars.removeFirst()
                if c == "\"" { break }
                if c == "\\" {
                    guard let escaped = scalars.first else { return nil }
                    scalars.removeFirst()
                    switch escaped {
                    case "n": value += "\n"
                    case "r": value += "\r"
                    case "t": value += "\t"
                    case "u":
                        guard scalars.first == "{", let close = scalars.firstIndex(of: "}") else { return nil }
                        let hex = String(String.UnicodeScalarView(scalars[scalars.index(after: scalars.startIndex)..<close]))
                        guard let value32 = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value32) else { return nil }
                        value.unicodeScalars.append(scalar)
                        scalars = scalars[scalars.index(after: close)...]
                    default: value.unicodeScalars.append(escaped)
                    }
                } else {
                    value.unicodeScalars.append(c)
                }
            }
            words.append(value)
            skipSpaces()
        }
        return (words, String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespaces))
    }

    // MARK: Checking

    /// ` (type, optional)`, or nothing.
    static func listing(_ fields: [String]) -> String { fields.isEmpty ? "" : " (\(fields.joined(separator: ", ")))" }

    /// CP401 for every locked version whose fingerprint changed (naming each entity and property
    /// that changed, appeared or disappeared), CP402 for every locked version the bundle lacks.
    public func check(against bundle: ModelBundle, lockFile: String) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (name, locked, line) in versions {
            let lockLocation = SourceLocation(file: lockFile, line: line == 0 ? nil : line, column: line == 0 ? nil : 1)
            guard let version = bundle.version(named: name) else {
                findings.append(Diagnostic(.lockedVersionMissing, "the locked version '\(name)' is not in the bundle any more: stores at that version cannot be opened",
                                           at: lockLocation, versions: [name]))
                continue
            }
            guard let model = version.model else { continue }
            let current = Self.fingerprint(model)
            guard current.digest != locked.digest else { continue }
            var changes: [(String, (line: Int, column: Int?)?)] = []
            func place(_ line: Int?, _ column: Int?) -> (line: Int, column: Int?)? { line.map { ($0, column) } }
            for entity in Set(locked.entities.keys).union(current.entities.keys).sorted() {
                let entityDefinition = model.entities.first { $0.name == entity }
                let line = place(entityDefinition?.line, entityDefinition?.column)
                switch (locked.entities[entity], current.entities[entity]) {
                case (nil, _?): changes.append(("entity '\(entity)' was added", line)); continue
                case (_?, nil): changes.append(("entity '\(entity)' was removed", nil)); continue
                case let (old?, new?) where old != new:
                    let fields = Self.changedFields(locked.entityFields[entity], current.entityFields[entity], names: Self.entityFields)
                    changes.append(("entity '\(entity)' changed" + Self.listing(fields), line))
                default: break
                }
                let before = locked.properties[entity] ?? [:], after = current.properties[entity] ?? [:]
                let definition = model.entities.first { $0.name == entity }
                for property in Set(before.keys).union(after.keys).sorted() where before[property] != after[property] {
                    let propertyLine = definition?.attributes.first { $0.name == property }.flatMap { place($0.line, $0.column) }
                        ?? definition?.relationships.first { $0.name == property }.flatMap { place($0.line, $0.column) }
                    let isAttribute = definition?.attributes.contains { $0.name == property } ?? false
                    let fields = Self.changedFields(locked.propertyFields[entity]?[property], current.propertyFields[entity]?[property],
                                                    names: isAttribute ? Self.attributeFields : Self.relationshipFields)
                    let what = before[property] == nil ? "was added" : after[property] == nil ? "was removed" : "changed" + Self.listing(fields)
                    changes.append(("'\(entity).\(property)' \(what)", propertyLine ?? line))
                }
            }
            let shown = changes.prefix(5).map(\.0).joined(separator: "; ") + (changes.count > 5 ? "; and \(changes.count - 5) more" : "")
            let location = changes.first?.1.map { SourceLocation(file: version.path, line: $0.line, column: $0.column) } ?? SourceLocation(file: version.path)
            findings.append(Diagnostic(.lockedVersionChanged, "the shipped version '\(name)' was edited after it was locked: \(shown.isEmpty ? "its fingerprint changed" : shown)",
                                       at: location, versions: [name]))
        }
        return findings
    }
}

extension ChainPlanner {
    /// What `chainplan lock` writes.
    public struct LockPlan: Sendable {
        /// The lock, or nil when the input has no readable model bundle.
        public var lock: ChainLock?
        /// Where it belongs: `chain.lock` beside the spec (or beside a bundle given as the spec).
        public var file: URL
        public var report: ChainReport
        /// Requested versions the bundle does not have (or cannot read).
        public var missing: [String]
    }

    /// The lock of `versions`, or by default of every bundle version except the target (the
    /// versions that have shipped), in the bundle's order.
    public func lock(inputAt url: URL, versions requested: [String]?) -> LockPlan {
        let planned = planWithBundle(inputAt: url)
        let (report, bundle) = (planned.report, planned.bundle)
        let file = url.deletingLastPathComponent().appendingPathComponent(ChainLock.fileName)
        guard let bundle else { return LockPlan(lock: nil, file: file, report: report, missing: requested ?? []) }
        let names = requested ?? bundle.versionNames.filter { $0 != report.target }
        let readable = names.filter { bundle.version(named: $0)?.model != nil }
        return LockPlan(lock: ChainLock(bundle: bundle, versions: readable), file: file, report: report,
                        missing: names.filter { !readable.contains($0) })
    }
}

import ChainPlanCore
import ChainPlanGraph
import ChainPlanHashing
import ChainPlanReaders
import Foundation

/// `chain.lock`: the Core Data version hashes of the model versions that have shipped.
///
/// A store in a user's hands records the entity version hashes of the model that made it; Core
/// Data opens it without a migration exactly when the app's model has the same hashes (§1.7), and
/// finds its source model by them (§2). A shipped version edited so that a hash moves no longer
/// matches those stores. The lock records, per shipped version, its `versionChecksum` and every
/// entity's version hash (base64, as `VersionInfo.plist` and store metadata write them), so
/// `validate` reports CP401 when they change and CP402 when the version is gone. Edits that move
/// no hash (renaming identifiers, defaults, delete rules, indexes) are not changes to Core Data
/// and are not reported.
///
/// After each entity's hash, and on one line per hashed property, four hex digits per input of
/// the hash engine's table (`HashInputTable`) let CP401 say which property and field moved, without
/// keeping a snapshot of the model. A version or entity whose hash rests on an input the reference
/// leaves open (or reads only from code) is marked `unverified`:
///
/// ```
/// version "Model 2" 8f6yA0QvE1x2Rk1iAxQ0c0k4oFJq1aL3c2m7X0n4bHk=
///   entity "Item" DbE4c1v9o4Z0u3fQ9t7nJ2lq3q1m7c1n2Yb6QhQ2k0A= 1a2b3c4d5e6f7a8b
///   attribute "Item" "name" 0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e
///   relationship "Item" "list" 0a1b2c3d4e5f6a7b8c9d0e1f2a3b
/// ```
///
/// Names are quoted with escapes, bidirectional controls included (`\u{202E}`), so the file reads
/// as it is in every viewer; reading decodes the escapes. A lock written by chainplan before the
/// hash engine (16-hex-digit fingerprints) is recognised and refused with how to upgrade it.
public struct ChainLock: Sendable, Hashable {
    public static let fileName = "chain.lock"
    public static let maxBytes = 64 << 20

    /// What is locked of one version.
    public struct VersionFingerprint: Sendable, Hashable {
        /// Core Data's `versionChecksum` (base64, 44 characters).
        public var checksum: String
        /// Entity name → base64 entity version hash.
        public var entities: [String: String]
        /// Entity name → its hash inputs as four-hex-digit digests (`EntityHashInputs.digested`).
        public var inputs: [String: EntityHashInputs]
        /// Entities whose hash rests on an unverified input.
        public var unverified: Set<String>

        public init(checksum: String, entities: [String: String], inputs: [String: EntityHashInputs] = [:], unverified: Set<String> = []) {
            self.checksum = checksum
            self.entities = entities
            self.inputs = inputs
            self.unverified = unverified
        }

        /// True when every entity hash rests on verified rules only.
        public var isVerified: Bool { unverified.isEmpty }

        /// What the lock's text holds (a fingerprint made from a model also knows each parent's name).
        public var recorded: VersionFingerprint {
            var copy = self
            copy.inputs = inputs.mapValues { var inputs = $0; inputs.parent = nil; return inputs }
            return copy
        }
    }

    /// Locked versions in file order, with the line each starts on (for findings).
    public var versions: [(name: String, fingerprint: VersionFingerprint, line: Int)]

    public static func == (lhs: ChainLock, rhs: ChainLock) -> Bool {
        lhs.versions.map(\.name) == rhs.versions.map(\.name) && lhs.versions.map(\.fingerprint) == rhs.versions.map(\.fingerprint)
    }

    public func hash(into hasher: inout Hasher) {
        for version in versions { hasher.combine(version.name); hasher.combine(version.fingerprint) }
    }

    public init(versions: [(name: String, fingerprint: VersionFingerprint, line: Int)]) {
        self.versions = versions
    }

    /// The lock of `names` (in that order) from `bundle`; versions without hashes are left out.
    public init(bundle: ModelBundle, versions names: [String]) {
        let chosen = names.compactMap { bundle.version(named: $0) }
        let fingerprints = Parallel.map(chosen) { Self.fingerprint($0) }
        versions = zip(chosen, fingerprints).compactMap { version, fingerprint in fingerprint.map { (version.name, $0, 0) } }
    }

    // MARK: Prints

    /// What the lock records of `version`, nil when it has no hashes (legacy or unhashable).
    public static func fingerprint(_ version: ModelVersion) -> VersionFingerprint? {
        guard let model = version.model, let hashes = VersionHashes(version).hashes else { return nil }
        return fingerprint(model, hashes)
    }

    static func fingerprint(_ model: ObjectModel, _ hashes: ModelHashes) -> VersionFingerprint {
        let inputs = HashInputTable.inputs(of: model).filter { hashes.entities[$0.key] != nil }
        return VersionFingerprint(checksum: hashes.checksum, entities: hashes.entities.mapValues { $0.base64EncodedString() },
                            inputs: inputs.mapValues { $0.digested(digest) }, unverified: hashes.unverifiedEntities)
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
            # chain.lock: Core Data version hashes of the shipped model versions, written by `chainplan lock`.
            # Commit it. `chainplan validate` reports CP401 when a locked version's hashes change and CP402
            # when one is missing. `chainplan lock` adds newly shipped versions; rewriting or dropping a
            # locked one needs --force.

            """
        func quote(_ name: String) -> String { QuotedText.quote(name, bidiVisible: true) }
        let mark = { (unverified: Bool) in unverified ? " unverified" : "" }
        for (name, fingerprint, _) in versions {
            out += "version \(quote(name)) \(fingerprint.checksum)\(mark(!fingerprint.isVerified))\n"
            for entity in VersionHasher.sortedNames(fingerprint.entities.keys) {
                let inputs = fingerprint.inputs[entity]
                out += "  entity \(quote(entity)) \(fingerprint.entities[entity] ?? "")\(inputs.map { " " + $0.values.joined() } ?? "")"
                    + "\(mark(fingerprint.unverified.contains(entity)))\n"
                let properties = inputs?.properties ?? [:]
                for property in VersionHasher.sortedNames(properties.keys) {
                    guard let fields = properties[property] else { continue }
                    out += "  \(fields.kind.rawValue) \(quote(entity)) \(quote(property)) \(fields.values.joined())\n"
                }
            }
        }
        return out
    }

    /// Malformed lines reported one by one; the rest are counted in a closing finding.
    static let listedProblems = 20

    /// Reads a lock; every malformed line is a CP403 at its line (the first `listedProblems`,
    /// then one finding saying how many more there are). A lock in the format chainplan wrote
    /// before Core Data's hashes is one CP403 that says how to upgrade it.
    public static func read(_ text: String, file: String) -> (ChainLock?, [Diagnostic]) {
        var versions: [(String, VersionFingerprint, Int)] = []
        var diagnostics = FindingList(.unreadableLock, limit: listedProblems)
        let entityDigits = HashInputTable.entity.count * 4
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let at = SourceLocation(file: file, line: index + 1, column: 1)
            guard let (words, rest) = Self.split(line), words.count >= 1 else {
                diagnostics.add(.unreadableLock(.unreadableLine, at: at))
                continue
            }
            let parts = rest.split(separator: " ").map(String.init)
            let unverified = parts.last == "unverified"
            let values = unverified ? Array(parts.dropLast()) : parts
            switch (words.first, words.count) {
            case ("version"?, 2) where values.count == 1 && isHash(values[0]):
                versions.append((words[1], VersionFingerprint(checksum: values[0], entities: [:]), index + 1))
            case ("version"?, 2) where values.count == 1 && values[0].count == 16 && values[0].allSatisfy(\.isHexDigit):
                return (nil, [.unreadableLock(.olderFormat, at: at)])
            case ("entity"?, 2) where !versions.isEmpty && values.count == 2 && isHash(values[0]) && isDigits(values[1], entityDigits):
                let last = versions.count - 1
                versions[last].1.entities[words[1]] = values[0]
                versions[last].1.inputs[words[1]] = EntityHashInputs(name: words[1], parent: nil, values: chunks(values[1]), properties: [:])
                if unverified { versions[last].1.unverified.insert(words[1]) }
            case (let kind?, 3) where !unverified && values.count == 1 && versions.last?.1.inputs[words[1]] != nil:
                guard let kind = PropertyHashInputs.Kind(rawValue: kind),
                      isDigits(values[0], PropertyHashInputs(kind: kind, values: []).fieldNames.count * 4) else { fallthrough }
                versions[versions.count - 1].1.inputs[words[1]]?.properties[words[2]] = PropertyHashInputs(kind: kind, values: chunks(values[0]))
            default:
                diagnostics.add(.unreadableLock(.unexpectedLine, at: at))
            }
        }
        let problems = diagnostics.finished(at: SourceLocation(file: file))
        return (problems.isEmpty ? ChainLock(versions: versions) : nil, problems)
    }

    /// A base64 SHA-256 hash: 44 characters that decode to 32 bytes.
    static func isHash(_ text: String) -> Bool { text.count == 44 && Data(base64Encoded: text)?.count == 32 }

    static func isDigits(_ text: String, _ count: Int) -> Bool {
        text.utf8.count == count && text.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    static func chunks(_ digits: String) -> [String] {
        let characters = Array(digits)
        return stride(from: 0, to: characters.count, by: 4).map { String(characters[$0..<min($0 + 4, characters.count)]) }
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

    /// The lock in the file at `url` (shown as `display`), or the findings that make it unusable.
    static func load(at url: URL, display: String) -> (ChainLock?, [Diagnostic]) {
        switch FileAccess.readRegularFile(at: url, maxBytes: maxBytes) {
        case .failure(let problem):
            return (nil, [.unreadableLock(.unreadableFile(problem.description), at: SourceLocation(file: display))])
        case .success(let data):
            guard let text = String(validating: data, as: UTF8.self) else {
                return (nil, [.unreadableLock(.notUTF8, at: SourceLocation(file: display))])
            }
            return read(text, file: display)
        }
    }

    // MARK: Checking

    /// What the lock says shipped, for the shipped-versions check.
    func shipped(lockFile: String) -> ShippedVersions {
        ShippedVersions(source: .lock(file: lockFile), versions: versions.map { version in
            ShippedVersions.Version(name: version.name, fingerprint: version.fingerprint,
                                    location: SourceLocation(file: lockFile, line: version.line == 0 ? nil : version.line, column: version.line == 0 ? nil : 1))
        })
    }

    /// Where the first changed property of `entity` is defined (else the entity).
    static func place(of entity: String, in model: ObjectModel, locked: EntityHashInputs?, current: EntityHashInputs?) -> (line: Int, column: Int?)? {
        let definition = model.entities.first { $0.name == entity }
        let before = locked?.properties ?? [:], after = current?.properties ?? [:]
        for property in VersionHasher.sortedNames(Set(before.keys).union(after.keys)) where before[property] != after[property] {
            if let attribute = definition?.attributes.first(where: { $0.name == property }), let line = attribute.line { return (line, attribute.column) }
            if let relationship = definition?.relationships.first(where: { $0.name == property }), let line = relationship.line { return (line, relationship.column) }
        }
        return definition?.line.map { ($0, definition?.column) }
    }
}

/// What `chainplan lock` writes, and what it did to the versions an existing lock held.
public struct LockPlan: Sendable {
    /// The lock to write, or nil when the input has no readable model bundle or the existing
    /// lock stands in the way (`refusal` says why).
    public var lock: ChainLock?
    /// Where it belongs: `chain.lock` beside the spec (or beside a bundle given as the spec).
    public var file: URL
    public var report: ChainReport
    /// Requested versions the bundle does not have (or cannot hash).
    public var missing: [String]
    /// Versions locked for the first time.
    public var added: [String] = []
    /// Locked versions whose hashes changed, kept as locked (rewriting them needs `force`).
    public var kept: [String] = []
    /// Locked versions rewritten from the bundle (`force`).
    public var rewritten: [String] = []
    /// Locked versions left out of the new lock (`force`).
    public var dropped: [String] = []
    /// Locked versions whose hashes rest on an input chainplan cannot verify.
    public var unverified: [String] = []
    /// Why the existing lock was not updated (unreadable, or in the old format), without `force`.
    public var refusal: String?
}

extension PlanOutcome {
    /// The lock of `versions` (default: every bundle version except the target, the versions that
    /// have shipped), merged with the existing `chain.lock`: its versions stay as they were locked,
    /// new ones are appended. `force` rewrites the lock from the bundle alone, and reports every
    /// locked version it rewrites or drops.
    /// `file` is where the lock belongs (`chain.lock` beside the input).
    package func lockPlan(file: URL, versions requested: [String]?, force: Bool = false) -> LockPlan {
        guard let bundle else { return LockPlan(lock: nil, file: file, report: report, missing: requested ?? []) }
        let names = requested ?? bundle.versionNames.filter { $0 != report.target }
        let fresh = ChainLock(bundle: bundle, versions: names)
        let made = Set(fresh.versions.map(\.name))
        var plan = LockPlan(lock: fresh, file: file, report: report, missing: names.filter { !made.contains($0) })
        var existing: ChainLock?
        if FileManager.default.fileExists(atPath: file.path) {
            let read = ChainLock.load(at: file, display: file.lastPathComponent)
            existing = read.0
            if existing == nil, !force {
                plan.lock = nil
                plan.refusal = "the existing \(ChainLock.fileName) is not updated: " + (read.1.first.map { diagnostic in
                    (diagnostic.location?.line.map { "line \($0): " } ?? "") + diagnostic.message
                } ?? "it cannot be read") + (read.1.first?.message.contains("--force") == true ? "" : " (`--force` replaces it)")
                return plan
            }
        }
        let freshByName = Dictionary(fresh.versions.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        if force {
            plan.added = fresh.versions.map(\.name).filter { name in !(existing?.versions.contains { $0.name == name } ?? false) }
            for old in existing?.versions ?? [] {
                if let new = freshByName[old.name] {
                    if new.fingerprint.recorded != old.fingerprint.recorded { plan.rewritten.append(old.name) }
                } else {
                    plan.dropped.append(old.name)
                }
            }
        } else if let existing {
            var merged: [(name: String, fingerprint: ChainLock.VersionFingerprint, line: Int)] = []
            for old in existing.versions {
                if let new = freshByName[old.name], new.fingerprint.recorded != old.fingerprint.recorded { plan.kept.append(old.name) }
                merged.append((old.name, old.fingerprint, 0))
            }
            let locked = Set(existing.versions.map(\.name))
            for new in fresh.versions where !locked.contains(new.name) {
                merged.append(new)
                plan.added.append(new.name)
            }
            plan.lock = ChainLock(versions: merged)
        } else {
            plan.added = fresh.versions.map(\.name)
        }
        plan.unverified = plan.lock?.versions.filter { !$0.fingerprint.isVerified }.map(\.name) ?? []
        return plan
    }
}

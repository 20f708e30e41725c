import ChainPlanCore
import ChainPlanHashing
import ChainPlanHistory
import ChainPlanReaders
import Foundation

/// What shipped, version by version, and the one check of a bundle against it: the same for
/// `chain.lock` and for a git revision (`--against`).
///
/// A store in a user's hands records the entity version hashes of the model that made it; Core
/// Data opens it without a migration exactly when the app's model has the same hashes, and finds
/// its source model by them (reference §1.7, §2). So a shipped version is compared by its hashes:
/// one whose hashes moved is CP401, one that is gone CP402 (or CP407 when a version that did not
/// ship has its hashes). Against a revision, which also holds the files and the current version,
/// an edit that moved no hash is CP406 and a current version older than the shipped one CP408.
package struct ShippedVersions: Sendable {
    package enum Source: Sendable {
        case lock(file: String)
        case revision(Revision)
    }

    package struct Version: Sendable {
        var name: String
        /// What shipped; nil when the revision's `contents` is byte for byte the work tree's, so
        /// that there is nothing to compare.
        var fingerprint: ChainLock.VersionFingerprint?
        /// Where the version is recorded (its lock line); nil for a revision.
        var location: SourceLocation?
    }

    var source: Source
    var versions: [Version]
    /// The revision's current version (nil for a lock).
    var currentVersion: String?
    /// The app migrates by stages (a SwiftData plan with stages): stores of a changed version
    /// fail with 134504, not 134130.
    var staged = false

    /// What `shipped` holds: every version its bundle has. A version whose `contents` equals
    /// the work tree's (`contentsOf`) is the same model, so only the others are parsed and hashed.
    package init(_ shipped: ShippedBundle, comparedWith bundle: ModelBundle, contentsOf: (ModelVersion) -> Data?) {
        source = .revision(shipped.revision)
        currentVersion = shipped.currentVersion
        let names = shipped.versionNames
        let unchanged = names.map { name in bundle.version(named: name).flatMap(contentsOf) == shipped.contents[name] }
        let edited = zip(names, unchanged).filter { !$0.1 }.map(\.0)
        let fingerprints = Dictionary(uniqueKeysWithValues: zip(edited, Parallel.map(edited) { name in
            shipped.version(named: name).flatMap(ChainLock.fingerprint)
        }))
        versions = zip(names, unchanged).compactMap { name, unchanged in
            if unchanged { return Version(name: name, fingerprint: nil, location: nil) }
            // A version without hashes at the revision cannot be compared.
            return fingerprints[name].flatMap { $0 }.map { Version(name: name, fingerprint: $0, location: nil) }
        }
    }

    init(source: Source, versions: [Version]) {
        self.source = source
        self.versions = versions
    }

    /// The versions that shipped, by name.
    var names: Set<String> { Set(versions.map(\.name)) }

    /// Every finding of `bundle` against what shipped.
    func check(against bundle: ModelBundle) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let shippedNames = names
        let unshipped = bundle.versions.filter { !shippedNames.contains($0.name) }
        let unshippedChecksums = Dictionary(unshipped.compactMap { version in VersionHashes(version).hashes.map { ($0.checksum, version.name) } },
                                            uniquingKeysWith: { first, _ in first })
        for shipped in versions {
            // Unchanged bytes: the same model.
            guard let fingerprint = shipped.fingerprint else { continue }
            let location = shipped.location ?? SourceLocation(file: bundle.path)
            guard let version = bundle.version(named: shipped.name) else {
                if let newName = unshippedChecksums[fingerprint.checksum] {
                    findings.append(.shippedVersionRenamed(shipped.name, to: newName, at: location))
                } else {
                    findings.append(.shippedVersionMissing(shipped.name, source: source, at: location))
                }
                continue
            }
            // A version without hashes has its own finding (CP112, CP122).
            guard let model = version.model, let hashes = VersionHashes(version).hashes else { continue }
            guard hashes.checksum != fingerprint.checksum else {
                // Against a revision, only versions whose bytes differ have a fingerprint.
                if case .revision(let revision) = source {
                    findings.append(.cosmeticEditOfShippedVersion(shipped.name, revision: revision, at: SourceLocation(file: version.path)))
                }
                continue
            }
            findings.append(changed(shipped.name, fingerprint, now: version, model: model, hashes: hashes))
        }
        if case .revision(let revision) = source, let was = currentVersion, let now = bundle.currentVersion, was != now,
           let wasIndex = bundle.versionNames.firstIndex(of: was), let nowIndex = bundle.versionNames.firstIndex(of: now), nowIndex < wasIndex {
            findings.append(.currentVersionMovedBack(to: now, from: was, revision: revision,
                                                     at: SourceLocation(file: bundle.path + "/.xccurrentversion")))
        }
        return findings
    }

    /// CP401 for `shipped`, whose hashes moved: each entity, property and field that moved, at
    /// the first changed property's definition.
    private func changed(_ name: String, _ locked: ChainLock.VersionFingerprint, now version: ModelVersion, model: ObjectModel, hashes: ModelHashes) -> Diagnostic {
        let current = ChainLock.fingerprint(model, hashes)
        let lockedHashes = locked.entities.compactMapValues { Data(base64Encoded: $0) }
        let changes = HashDifference.changes(from: locked.inputs, lockedHashes, to: current.inputs, hashes.entities, showsValues: false)
        let shown = changes.prefix(5).map { change in
            change.description + (locked.unverified.contains(change.entity) || current.unverified.contains(change.entity) ? " [hash unverified]" : "")
        }.joined(separator: "; ") + (changes.count > 5 ? "; and \(changes.count - 5) more" : "")
        let location = changes.first.flatMap { ChainLock.place(of: $0.entity, in: model, locked: locked.inputs[$0.entity], current: current.inputs[$0.entity]) }
            .map { SourceLocation(file: version.path, line: $0.line, column: $0.column) } ?? SourceLocation(file: version.path)
        return .shippedVersionChanged(name, changes: shown, source: source, staged: staged, at: location)
    }
}

import ChainPlanCore
import ChainPlanHistory
import ChainPlanReaders
import ChainPlanSwiftSource
import Foundation

/// SwiftData sources against a git revision (`--against`): the same file or folder is read at
/// the revision, its plan's schemas are what shipped, and each is compared with the schema of
/// the same name now by its hashes (`ShippedVersions.check`): a schema whose checksum moved is
/// CP401 (its users' stores fail with 134504), one that is gone CP402 (CP407 when another schema
/// now has its checksum).
enum ShippedSchemas {
    /// The findings of `chain` (read from `url`, shown as `path`) against `revision`, and the
    /// schemas that shipped there; `location` is where a revision that cannot be read is reported.
    static func check(_ chain: SwiftDataChain, at url: URL, path: String, planName: Located<String>?, revision name: String, staged: Bool, configuration: StatedConfiguration, git: Git,
                      location: SourceLocation) -> (findings: [Diagnostic], versions: Set<String>?) {
        let files: RevisionFiles
        switch RevisionFiles.open(containing: url, revision: name, git: git) {
        case .success(let opened): files = opened
        case .failure(let problem): return ([.unreadableRevision(problem, at: location)], nil)
        }
        let isFile = url.pathExtension == "swift"
        let folder = isFile ? url.deletingLastPathComponent() : url
        let found: [String: Data]
        // Only the Swift sources the work tree would read there (the one file, for a file).
        switch files.files(under: folder, named: isFile ? url.lastPathComponent : nil, including: SwiftSourceFiles.isSourcePath) {
        case .success(let listed): found = listed.files
        case .failure(let problem): return ([.unreadableRevision(problem, at: location)], nil)
        }
        // The work tree's rules and limits (`SwiftSourceFiles`): the same files, no larger.
        var sources: [(path: String, text: String)] = []
        var total = 0
        for key in found.keys.sorted() {
            guard let data = found[key] else { continue }
            // A file the work tree would refuse is reported, never skipped: its schemas would look gone (CP402).
            guard data.count <= SwiftSourceLimits.maxFileBytes, let text = String(data: data, encoding: .utf8) else {
                return ([.unreadableRevision(.gitFailed("'\(key)' at \(files.revision.name) is over \(ByteSize.describe(SwiftSourceLimits.maxFileBytes)) or not UTF-8"),
                                             at: location)], nil)
            }
            total += data.count
            guard sources.count < SwiftSourceLimits.maxFiles, total <= SwiftSourceLimits.maxTotalBytes else {
                return ([.unreadableRevision(.gitFailed("the Swift sources at \(files.revision.name) are over chainplan's limits (\(SwiftSourceLimits.maxFiles) files, \(ByteSize.describe(SwiftSourceLimits.maxTotalBytes)))"),
                                             at: location)], nil)
            }
            sources.append((isFile ? path : path + "/" + key, text))
        }
        guard !sources.isEmpty else {
            return ([.bundleNotAtRevision(path, revision: files.revision, at: location)], [])
        }
        var written = ChainSpec.inferred(versions: [], file: path)
        written.migrationPlan = planName
        let shipped = SwiftDataChain(SwiftDataReader.read(files: sources, configuration: configuration), path: path, written: written)
        let now = Dictionary(chain.bundle.versions.compactMap { version in ChainLock.fingerprint(version).map { (version.name, $0.checksum) } },
                             uniquingKeysWith: { first, _ in first })
        // A schema whose checksum is unchanged needs no comparison (nil fingerprint).
        let versions = shipped.bundle.versions.compactMap { version -> ShippedVersions.Version? in
            guard let fingerprint = ChainLock.fingerprint(version) else { return nil }
            return ShippedVersions.Version(name: version.name, fingerprint: now[version.name] == fingerprint.checksum ? nil : fingerprint, location: nil)
        }
        var check = ShippedVersions(source: .revision(files.revision), versions: versions)
        check.staged = staged
        // A shipped schema's payloads are outside its checksum: compared on their own.
        let payloads = CodablePayloadCheck.findings(shipped: shipped.project.versions, now: chain.project.versions, revision: files.revision.name)
        return (check.check(against: chain.bundle) + payloads, check.names)
    }
}

import ChainPlanCore
import ChainPlanReaders
import Foundation

/// A model bundle as a git revision holds it: what shipped, when that revision is a release
/// (or the branch a pull request goes into).
package struct ShippedBundle: Sendable {
    package var revision: Revision
    /// The bundle's path from the top of the work tree (`Models/Model.xcdatamodeld`).
    package var folder: String
    /// Each version's `contents` bytes at the revision, by version name; empty when the
    /// revision has no bundle at that path. Legacy versions (no `contents`) are left out: they
    /// have no hashes to compare.
    package var contents: [String: Data]
    /// The version `.xccurrentversion` names at the revision, when it names one of `contents`.
    package var currentVersion: String?

    /// Whether the revision holds the bundle at all.
    package var isPresent: Bool { !contents.isEmpty }

    /// The versions, in the order a bundle lists them.
    package var versionNames: [String] { VersionOrder.sorted(Array(contents.keys)) }

    /// The version `name` parsed from its `contents` at the revision, shown as
    /// `<revision>:<folder>/<name>.xcdatamodel/contents`.
    package func version(named name: String) -> ModelVersion? {
        guard let data = contents[name] else { return nil }
        let path = "\(revision.name):" + Repository.path("\(name).xcdatamodel/contents", in: folder)
        return ModelVersion(name: name, path: path, model: ModelContentsParser().parse(data, file: path, version: name).model)
    }

    /// Reads the bundle at `url` (in a work tree) as it was at `revision`, from the repository
    /// alone: the work tree and the index are not touched, and nothing is parsed yet.
    package static func read(bundleAt url: URL, revision name: String, git: Git) -> Result<ShippedBundle, RevisionProblem> {
        RevisionFiles.open(containing: url, revision: name, git: git).flatMap { read(bundleAt: url, from: $0) }
    }

    /// Reads the bundle at `url` as `files`' revision holds it.
    package static func read(bundleAt url: URL, from files: RevisionFiles) -> Result<ShippedBundle, RevisionProblem> {
        // Only what a bundle reads: `.xccurrentversion` and each version's `contents`.
        files.files(under: url, including: { $0 == ".xccurrentversion" || $0.hasSuffix(".xcdatamodel/contents") }).map { found in
            var contents: [String: Data] = [:]
            for (path, data) in found.files {
                let parts = path.split(separator: "/")
                guard parts.count == 2, parts[1] == "contents", parts[0].hasSuffix(".xcdatamodel"), !parts[0].hasPrefix("."),
                      parts[0].count > ".xcdatamodel".count else { continue }
                contents[String(parts[0].dropLast(".xcdatamodel".count))] = data
            }
            var current: String?
            if let data = found.files[".xccurrentversion"], case .name(let raw, _) = CurrentVersionFile.parse(data) {
                let name = raw.hasSuffix(".xcdatamodel") ? String(raw.dropLast(".xcdatamodel".count)) : raw
                current = contents[name] == nil ? nil : name
            } else if contents.count == 1 {
                current = contents.keys.first
            }
            return ShippedBundle(revision: files.revision, folder: found.folder, contents: contents, currentVersion: current)
        }
    }
}

/// One revision of the work tree that holds a path, to read folders from (never the work tree).
package struct RevisionFiles: Sendable {
    package var repository: Repository
    package var revision: Revision

    /// The repository that holds `url`, and `revision` resolved in it.
    package static func open(containing url: URL, revision name: String, git: Git) -> Result<RevisionFiles, RevisionProblem> {
        Repository.containing(url, git: git).flatMap { repository in
            repository.resolve(name).map { RevisionFiles(repository: repository, revision: $0) }
        }
    }

    /// The regular files under the folder `url` (of the work tree) at the revision whose path
    /// inside it passes `including` (only the file `named` there, when given), by that path, and
    /// the folder's path from the top; no files when the folder is not there.
    package func files(under url: URL, named: String? = nil,
                       including: (String) -> Bool = { _ in true }) -> Result<(folder: String, files: [String: Data]), RevisionProblem> {
        guard let folder = repository.relativePath(of: url) else { return .failure(.outsideRepository(url.path)) }
        return repository.files(under: folder, at: revision.commit, named: named, including: including).map { (folder, $0) }
    }
}

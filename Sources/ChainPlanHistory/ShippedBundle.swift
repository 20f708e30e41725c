import ChainPlanCore
import ChainPlanReaders
import Foundation

/// A model bundle as a git revision holds it: what shipped, when that revision is a release
/// (or the branch a pull request goes into).
package struct ShippedBundle: Sendable {
    package var revision: Revision
    /// The bundle at the revision; nil when the revision has no bundle at that path.
    package var bundle: ModelBundle?
    /// Each version's `contents` bytes at the revision, by version name.
    package var contents: [String: Data]

    /// Reads the bundle at `url` (in a work tree) as it was at `revision`, from the repository
    /// alone: the work tree and the index are not touched. The files are written to a private
    /// temporary folder, read by `ModelBundleReader` as the bundle itself would be, and removed;
    /// they are shown as `<revision>:<path from the top>`.
    package static func read(bundleAt url: URL, revision name: String, git: Git) -> Result<ShippedBundle, RevisionProblem> {
        let repository: Repository
        switch Repository.containing(url, git: git) {
        case .success(let found): repository = found
        case .failure(let problem): return .failure(problem)
        }
        let revision: Revision
        switch repository.resolve(name) {
        case .success(let resolved): revision = resolved
        case .failure(let problem): return .failure(problem)
        }
        guard let folder = repository.relativePath(of: url) else { return .failure(.outsideRepository(url.path)) }
        let files: [String: Data]
        switch repository.files(under: folder, at: revision.commit) {
        case .success(let read): files = read
        case .failure(let problem): return .failure(problem)
        }
        guard !files.isEmpty else { return .success(ShippedBundle(revision: revision, bundle: nil, contents: [:])) }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-shipped-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent(url.lastPathComponent)
        do {
            for (path, data) in files {
                let target = copy.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: target, options: .withoutOverwriting)
            }
        } catch {
            return .failure(.gitFailed("the revision's files could not be written to a scratch folder: \(error.localizedDescription)"))
        }
        let read = ModelBundleReader().read(bundleAt: copy, displayPath: "\(revision.name):\(folder)")
        var contents: [String: Data] = [:]
        for (path, data) in files {
            let parts = path.split(separator: "/")
            guard parts.count == 2, parts[1] == "contents", parts[0].hasSuffix(".xcdatamodel") else { continue }
            contents[String(parts[0].dropLast(".xcdatamodel".count))] = data
        }
        return .success(ShippedBundle(revision: revision, bundle: read.bundle, contents: contents))
    }
}

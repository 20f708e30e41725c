import ChainPlanCore
import ChainPlanReaders
import Foundation

/// A commit, as `history` shows it.
public struct CommitStamp: Sendable, Hashable, Codable {
    /// The full object id.
    public var commit: String
    /// The committer date, strict ISO 8601 as git prints it (`2024-05-01T10:00:00+02:00`).
    public var date: String
}

/// When each version of a bundle entered the repository, and at which tags it was the current
/// version: read from git (never the work tree), following renames of the bundle's folder and
/// of the versions.
package struct VersionHistory: Sendable {
    /// The commit that first added each version's `contents`, by the version's name now;
    /// versions not committed yet are absent.
    package var addedIn: [String: CommitStamp]
    /// Each committed version's place in the order the versions were added: 0 for the first.
    package var addedOrder: [String: Int] = [:]
    /// For each version (by its name now), the tags at which it was the bundle's current version,
    /// in tag order (creation date, then name); filled by `currentIn(tags:)`.
    package var currentIn: [String: [String]] = [:]
    /// True when the clone is shallow: commits before its boundary are missing, so `addedIn`
    /// names the boundary for everything older.
    package var isShallow: Bool
    /// The bundle's folder under each name it had (from the top of the work tree), newest first.
    package var folders: [String]
    /// Every path each version's `contents` had, by the version's name now.
    var paths: [String: Set<String>]
    let repository: Repository

    /// The history of the bundle at `url` (in a work tree) for `versionNames`, its versions now.
    package static func read(bundleAt url: URL, versionNames: [String], git: Git) -> Result<VersionHistory, RevisionProblem> {
        Repository.containing(url, git: git).flatMap { repository in
            guard let folder = repository.relativePath(of: url) else { return .failure(.outsideRepository(url.path)) }
            return read(folder: folder, versionNames: versionNames, in: repository)
        }
    }

    /// Reads one `git log` of every change to a model version's `contents` in the repository,
    /// newest first, and walks it back from the versions' paths now.
    static func read(folder: String, versionNames: [String], in repository: Repository) -> Result<VersionHistory, RevisionProblem> {
        let shallow = repository.git.run(["rev-parse", "--is-shallow-repository"], in: repository.root)
            .map { String(decoding: $0, as: UTF8.self).hasPrefix("true") }
        // The pathspec is chainplan's own constant, so its glob magic is allowed.
        let log = repository.git.run(["log", "-M", "--name-status", "-z", "--diff-filter=ACR", "--format=%x01%H %cI",
                                      "--", ":(glob)**/*.xcdatamodel/contents"],
                                     in: repository.root, maxOutput: 256 << 20, literalPathspecs: false)
        let data: Data
        switch log {
        case .success(let read): data = read
        // A repository without any commit has no history yet.
        case .failure(.failed(_, let message)) where message.contains("does not have any commits"): data = Data()
        case .failure(let failure): return .failure(.gitFailed(Repository.describe(failure)))
        }
        var tracked: [String: String] = [:] // version → its contents' path at the commit being read
        var paths: [String: Set<String>] = [:]
        for name in versionNames {
            let path = Repository.path("\(name).xcdatamodel/contents", in: folder)
            tracked[name] = path
            paths[name] = [path]
        }
        var byPath = Dictionary(tracked.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
        var addedIn: [String: CommitStamp] = [:]
        var age: [String: Int] = [:] // the log lists newest first: a larger index is older
        var folders = [folder]
        var commitIndex: [String: Int] = [:]
        for (index, change) in LogChange.parse(data).enumerated() {
            if commitIndex[change.commit.commit] == nil { commitIndex[change.commit.commit] = index }
            guard let version = byPath[change.path] else { continue }
            if let previous = change.previousPath, change.isRename {
                byPath[change.path] = nil
                byPath[previous] = version
                tracked[version] = previous
                paths[version, default: []].insert(previous)
                let old = Self.folder(ofContents: previous)
                if let old, !folders.contains(old) { folders.append(old) }
            } else {
                addedIn[version] = change.commit
                age[version] = commitIndex[change.commit.commit] ?? index
            }
        }
        // Oldest first; versions added by one commit share its place.
        let commits = Array(Set(age.values)).sorted(by: >)
        let place = Dictionary(uniqueKeysWithValues: commits.enumerated().map { ($1, $0) })
        var history = VersionHistory(addedIn: addedIn, isShallow: (try? shallow.get()) ?? false, folders: folders,
                                       paths: paths, repository: repository)
        history.addedOrder = age.mapValues { place[$0] ?? 0 }
        return .success(history)
    }

    /// `Models/Model.xcdatamodeld` for `Models/Model.xcdatamodeld/V.xcdatamodel/contents`.
    static func folder(ofContents path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return nil }
        return parts.dropLast(2).joined(separator: "/")
    }

    /// Fills `currentIn` from the `.xccurrentversion` each tag matching `pattern` (a glob on
    /// the tag's name, `*` when nil) holds in any of the bundle's folders.
    package mutating func readCurrentVersions(tags pattern: String?) -> Result<Void, RevisionProblem> {
        let glob = pattern ?? "*"
        if glob.contains(where: { $0 == "\n" || $0 == "\0" }) { return .failure(.refusedRevision(glob, why: "a tag pattern holds a line break")) }
        let listing: Data
        switch repository.git.run(["for-each-ref", "--sort=creatordate", "--format=%(refname:strip=2)%00%(objectname)%00%(*objectname)%00%(objecttype)",
                                   "refs/tags/" + glob], in: repository.root, maxOutput: 64 << 20) {
        case .success(let data): listing = data
        case .failure(let failure): return .failure(.gitFailed(Repository.describe(failure)))
        }
        // Each tag's commit: the tag's object for a lightweight tag, the peeled object for an annotated one.
        var tags: [(name: String, commit: String)] = []
        for line in listing.split(separator: 10) {
            let fields = line.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields.count == 4 else { continue }
            let commit = fields[3] == "tag" ? fields[2] : fields[1]
            guard [40, 64].contains(commit.utf8.count), commit.allSatisfy(\.isHexDigit) else { continue }
            tags.append((fields[0], commit))
        }
        let usable = folders.filter { !$0.contains("\n") }
        var requests: [(tag: Int, folder: String)] = []
        for index in tags.indices {
            for folder in usable { requests.append((index, folder)) }
        }
        currentIn = [:]
        guard !requests.isEmpty else { return .success(()) }
        let input = Data(requests.map { "\(tags[$0.tag].commit):" + Repository.path(".xccurrentversion", in: $0.folder) + "\n" }.joined().utf8)
        let output: Data
        switch repository.git.run(["cat-file", "--batch"], in: repository.root, input: input, maxOutput: 256 << 20) {
        case .success(let data): output = data
        case .failure(let failure): return .failure(.gitFailed(Repository.describe(failure)))
        }
        var byPath: [String: String] = [:]
        for (version, all) in paths {
            for path in all { byPath[path] = version }
        }
        var found: Set<Int> = []
        var cursor = output.startIndex
        for request in requests {
            // "<object> blob <size>\n<bytes>\n", or "<request> missing\n".
            guard let end = output[cursor...].firstIndex(of: 10) else { break }
            let header = String(decoding: output[cursor..<end], as: UTF8.self)
            cursor = output.index(after: end)
            let fields = header.split(separator: " ")
            guard header.hasSuffix(" missing") == false, fields.count == 3, fields[1] == "blob", let size = Int(fields[2]), size >= 0,
                  output.distance(from: cursor, to: output.endIndex) >= size + 1 else { continue }
            let blob = output[cursor..<output.index(cursor, offsetBy: size)]
            cursor = output.index(cursor, offsetBy: size + 1)
            guard !found.contains(request.tag), case .name(let raw, _) = CurrentVersionFile.parse(Data(blob)) else { continue }
            let name = raw.hasSuffix(".xcdatamodel") ? String(raw.dropLast(".xcdatamodel".count)) : raw
            guard let version = byPath[Repository.path("\(name).xcdatamodel/contents", in: request.folder)] else { continue }
            found.insert(request.tag)
            currentIn[version, default: []].append(tags[request.tag].name)
        }
        return .success(())
    }
}

/// One change to a `contents` file in `git log -M --name-status -z` output.
struct LogChange: Equatable {
    var commit: CommitStamp
    /// The path after the change.
    var path: String
    /// The path before, for a rename or copy.
    var previousPath: String?
    var isRename: Bool

    /// The changes of a log printed with `--format=%x01%H %cI`, in the log's order. Fields are
    /// read by position, so a path holding any byte is read as a path.
    static func parse(_ data: Data) -> [LogChange] {
        var changes: [LogChange] = []
        let tokens = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        var index = 0
        var commit: CommitStamp?
        while index < tokens.count {
            let token = String(tokens[index].drop { $0 == "\n" })
            index += 1
            if token.hasPrefix("\u{1}") {
                let fields = token.dropFirst().split(separator: " ")
                commit = fields.count == 2 ? CommitStamp(commit: String(fields[0]), date: String(fields[1])) : nil
                continue
            }
            guard let status = token.first, let commit else { continue }
            switch status {
            case "A":
                guard index < tokens.count else { return changes }
                changes.append(LogChange(commit: commit, path: tokens[index], previousPath: nil, isRename: false))
                index += 1
            case "R", "C":
                guard index + 1 < tokens.count else { return changes }
                changes.append(LogChange(commit: commit, path: tokens[index + 1], previousPath: tokens[index], isRename: status == "R"))
                index += 2
            default:
                continue
            }
        }
        return changes
    }
}

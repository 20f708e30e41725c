import ChainPlanCore
import Foundation

/// Why a revision of the repository could not be read: each is a CP405 finding (exit 2).
package enum RevisionProblem: Error, Sendable, Equatable {
    case gitNotInstalled
    case notAWorkTree(String)
    case refusedRevision(String, why: String)
    case unknownRevision(String)
    /// The revision is not in this clone, which is shallow.
    case shallowClone(String)
    case outsideRepository(String)
    case unsafeEntry(String)
    case gitFailed(String)

    /// The sentence after "cannot read the shipped models: ".
    package var reason: String {
        switch self {
        case .gitNotInstalled:
            "the git executable was not found on PATH"
        case .notAWorkTree(let path):
            "'\(path)' is not in a git work tree"
        case .refusedRevision(let revision, let why):
            "the revision '\(Git.printable(revision))' is refused: \(why)"
        case .unknownRevision(let revision):
            "the revision '\(Git.printable(revision))' is not a commit of this repository"
        case .shallowClone(let revision):
            "the revision '\(Git.printable(revision))' is not in this shallow clone; fetch the history "
                + "(actions/checkout with `fetch-depth: 0`, or `git fetch --unshallow`)"
        case .outsideRepository(let path):
            "'\(path)' lies outside the git work tree that holds it"
        case .unsafeEntry(let path):
            "the revision holds an entry git should not have written ('\(Git.printable(path))')"
        case .gitFailed(let message):
            "git failed: \(message)"
        }
    }
}

/// A revision resolved to its commit.
package struct Revision: Sendable, Hashable {
    /// As the user gave it (`origin/main`, a tag, a hash).
    package var name: String
    /// The full object id of its commit.
    package var commit: String

    /// The commit's first 12 hex digits, as shown in messages.
    package var shortCommit: String { String(commit.prefix(12)) }
}

/// The git work tree that holds a path, read (never written) through `Git`.
package struct Repository: Sendable {
    package var git: Git
    /// The work tree's top folder, symbolic links resolved (as git prints it).
    package var root: URL

    /// Revisions are at most this long; longer ones are refused before git sees them.
    static let maxRevisionLength = 256

    /// The work tree that holds `url` (a file or folder that exists).
    package static func containing(_ url: URL, git: Git) -> Result<Repository, RevisionProblem> {
        var directory = url.standardizedFileURL
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
            directory = directory.deletingLastPathComponent()
        }
        switch git.run(["rev-parse", "--show-toplevel"], in: directory) {
        case .success(let data):
            let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
            guard path.hasPrefix("/") else { return .failure(.notAWorkTree(url.path)) }
            return .success(Repository(git: git, root: URL(fileURLWithPath: path, isDirectory: true)))
        case .failure(.notInstalled):
            return .failure(.gitNotInstalled)
        case .failure(.failed(_, let message)) where message.contains("not a git repository") || message.contains("must be run in a work tree"):
            return .failure(.notAWorkTree(url.path))
        case .failure(let failure):
            return .failure(.gitFailed(Self.describe(failure)))
        }
    }

    /// `revision` resolved to a commit with `git rev-parse --verify --end-of-options REV^{commit}`.
    /// Values git could read as an option, or that hold control characters, are refused first.
    package func resolve(_ revision: String) -> Result<Revision, RevisionProblem> {
        if revision.isEmpty { return .failure(.refusedRevision(revision, why: "it is empty")) }
        if revision.utf8.count > Self.maxRevisionLength {
            return .failure(.refusedRevision(revision, why: "it is longer than \(Self.maxRevisionLength) bytes"))
        }
        if revision.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0 == " " }) {
            return .failure(.refusedRevision(revision, why: "it holds a space or a control character"))
        }
        if revision.hasPrefix("-") { return .failure(.refusedRevision(revision, why: "it starts with '-'")) }
        if revision.contains(":") { return .failure(.refusedRevision(revision, why: "it names a path (':'), not a commit")) }
        switch git.run(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: root) {
        case .success(let data):
            let commit = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
            guard [40, 64].contains(commit.utf8.count), commit.allSatisfy(\.isHexDigit) else {
                return .failure(.gitFailed("rev-parse printed no commit for '\(Git.printable(revision))'"))
            }
            return .success(Revision(name: revision, commit: commit))
        case .failure(.failed):
            if case .success(let data) = git.run(["rev-parse", "--is-shallow-repository"], in: root),
               String(decoding: data, as: UTF8.self).hasPrefix("true") {
                return .failure(.shallowClone(revision))
            }
            return .failure(.unknownRevision(revision))
        case .failure(let failure):
            return .failure(.gitFailed(Self.describe(failure)))
        }
    }

    /// `url`'s path from the work tree's top (`Models/Model.xcdatamodeld`; empty for the top
    /// itself), symbolic links resolved; nil when it lies outside.
    package func relativePath(of url: URL) -> String? {
        guard case .success(let resolved) = FileAccess.canonicalPath(url.path),
              case .success(let top) = FileAccess.canonicalPath(root.path) else { return nil }
        if resolved == top { return "" }
        let prefix = top.hasSuffix("/") ? top : top + "/"
        guard resolved.hasPrefix(prefix) else { return nil }
        return String(resolved.dropFirst(prefix.count))
    }

    /// The path of `name` inside `folder` (a path from the top, empty for the top itself).
    package static func path(_ name: String, in folder: String) -> String {
        folder.isEmpty ? name : folder + "/" + name
    }

    /// Limits on what one folder's files at a revision may hold.
    package struct Limits: Sendable {
        package var maxFiles = 100_000
        package var maxBytes = 512 << 20
        package init() {}
    }

    /// The regular files under `folder` (a path from the top, empty for the whole tree) at
    /// `commit`, by their path inside `folder`: read with one `git ls-tree` and one `git cat-file --batch`. Symbolic links and
    /// submodules are left out; an empty result means the folder is not there.
    /// Only the files whose path inside `folder` passes `including` are read; `named`, a file
    /// directly in `folder`, narrows the listing to that file.
    package func files(under folder: String, at commit: String, limits: Limits = Limits(), named: String? = nil,
                       including: (String) -> Bool = { _ in true }) -> Result<[String: Data], RevisionProblem> {
        let pathspec = named.map { Self.path($0, in: folder) } ?? (folder.isEmpty ? "." : folder)
        let listing: Data
        switch git.run(["ls-tree", "-r", "-z", "--end-of-options", commit, "--", pathspec], in: root, maxOutput: limits.maxFiles * 512) {
        case .success(let data): listing = data
        case .failure(let failure): return .failure(.gitFailed(Self.describe(failure)))
        }
        var wanted: [(path: String, object: String)] = []
        for record in listing.split(separator: 0) {
            // "<mode> SP <type> SP <object> TAB <path>"
            guard let tab = record.firstIndex(of: 9) else { return .failure(.gitFailed("ls-tree printed an entry without a path")) }
            let fields = String(decoding: record[record.startIndex..<tab], as: UTF8.self).split(separator: " ")
            let path = String(decoding: record[record.index(after: tab)...], as: UTF8.self)
            guard fields.count == 3 else { return .failure(.gitFailed("ls-tree printed an unexpected entry")) }
            guard fields[0] == "100644" || fields[0] == "100755", fields[1] == "blob" else { continue }
            guard folder.isEmpty || path.hasPrefix(folder + "/") else { continue }
            let inside = folder.isEmpty ? path : String(path.dropFirst(folder.count + 1))
            guard including(inside) else { continue }
            let components = inside.split(separator: "/", omittingEmptySubsequences: false)
            guard !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }), components.count <= 16 else {
                return .failure(.unsafeEntry(path))
            }
            wanted.append((inside, String(fields[2])))
        }
        if wanted.count > limits.maxFiles { return .failure(.gitFailed("the folder holds more than \(limits.maxFiles) files at this revision")) }
        if wanted.isEmpty { return .success([:]) }
        let request = Data(wanted.map { $0.object + "\n" }.joined().utf8)
        let blobs: Data
        switch git.run(["cat-file", "--batch"], in: root, input: request, maxOutput: limits.maxBytes + wanted.count * 128) {
        case .success(let data): blobs = data
        case .failure(.outputTooLarge): return .failure(.gitFailed("the folder holds more than \(limits.maxBytes) bytes at this revision"))
        case .failure(let failure): return .failure(.gitFailed(Self.describe(failure)))
        }
        var files: [String: Data] = [:]
        var cursor = blobs.startIndex
        for entry in wanted {
            // "<object> SP blob SP <size> LF <bytes> LF"
            guard let end = blobs[cursor...].firstIndex(of: 10) else { return .failure(.gitFailed("cat-file ended early")) }
            let header = String(decoding: blobs[cursor..<end], as: UTF8.self).split(separator: " ")
            guard header.count == 3, header[0] == entry.object, header[1] == "blob", let size = Int(header[2]), size >= 0,
                  blobs.distance(from: end, to: blobs.endIndex) >= size + 2 else {
                return .failure(.gitFailed("cat-file printed an unexpected header for '\(Git.printable(entry.path))'"))
            }
            let start = blobs.index(after: end)
            let stop = blobs.index(start, offsetBy: size)
            files[entry.path] = Data(blobs[start..<stop])
            cursor = blobs.index(after: stop)
        }
        return .success(files)
    }

    static func describe(_ failure: Git.Failure) -> String {
        switch failure {
        case .notInstalled: "the git executable was not found on PATH"
        case .failed(let status, let message): message.isEmpty ? "git exited with status \(status)" : message
        case .outputTooLarge(let limit): "git printed more than \(limit) bytes"
        case .timedOut(let seconds): "git took longer than \(seconds) s"
        case .cannotLaunch(let reason): "git could not be started: \(reason)"
        }
    }
}

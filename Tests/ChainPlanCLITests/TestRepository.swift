import Foundation
@testable import ChainPlanCore
@testable import ChainPlanHistory

/// A git repository in a new temporary folder, for commands that read history; the caller
/// removes the folder.
struct TestRepository {
    let folder: URL
    let git: Git

    init(git: Git, prefix: String) throws {
        self.git = git
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try run("init", "-q")
    }

    /// Runs git in the repository with a fixed identity and no signing.
    func run(_ arguments: String...) throws {
        _ = try git.run(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "commit.gpgsign=false", "-c", "tag.gpgsign=false"]
                        + arguments, in: folder).get()
    }

    /// Writes `files` (paths inside the repository), making their folders.
    func write(_ files: [RuleExample.File]) throws {
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
        }
    }

    /// Commits everything, and tags the commit when `tag` is given.
    func commit(_ message: String, tag: String? = nil) throws {
        try run("add", "-A")
        try run("commit", "-q", "-m", message)
        if let tag { try run("tag", tag) }
    }
}

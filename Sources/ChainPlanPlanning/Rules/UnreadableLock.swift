import ChainPlanCore

extension DiagnosticCode {
    /// CP403 UnreadableLock: the lock file cannot be read.
    ///
    /// Raised when the lock is read (`ChainLock.read`, `ChainPlanner`), for one of the problems below.
    package static let unreadableLock = DiagnosticCode(
        "CP403", name: "UnreadableLock", severity: .error, unusableInput: true,
        summary: "The lock file cannot be read",
        help: "`chain.lock` beside the spec is not a file chainplan wrote, was edited by hand, or was written by an older chainplan (fingerprints, not Core Data's hashes). Regenerate it with `chainplan lock --force` from the commit that shipped.",
        examples: [
            .project("a lock line edited by hand", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("chain.lock", "version \"V1\" not-a-fingerprint\n")], expected: 1),
            .project("a lock written before Core Data's hashes", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("chain.lock", "version \"V1\" 0123456789abcdef\n")], expected: 1),
            .project("no lock", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody]), expected: 0),
        ])
}

/// Why a lock cannot be read.
enum LockProblem {
    /// The file could not be read (`reason`: the file system's answer).
    case unreadableFile(String)
    case notUTF8
    /// A line that is not a lock line.
    case unreadableLine
    /// A line that is not one of the lines expected where it is.
    case unexpectedLine
    /// A lock of field fingerprints, from before chainplan locked Core Data's hashes.
    case olderFormat

    var message: String {
        switch self {
        case .unreadableFile(let reason): "cannot read the lock: \(reason)"
        case .notUTF8: "the lock is not valid UTF-8"
        case .unreadableLine: "cannot read this line of the lock"
        case .unexpectedLine: "cannot read this line of the lock: expected 'version \"Name\" <checksum>', 'entity …', 'attribute …' or 'relationship …' after a version"
        case .olderFormat:
            "this lock was written by an older chainplan (field fingerprints, not Core Data's version hashes) and is no longer checked: "
                + "if no locked version changed since it was written (see the model files' history), run `chainplan lock --force` to rewrite it with Core Data's hashes"
        }
    }
}

extension Diagnostic {
    /// The finding for a lock that cannot be read, at the file or the line.
    static func unreadableLock(_ problem: LockProblem, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.unreadableLock, problem.message, at: location)
    }
}

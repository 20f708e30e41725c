import ChainPlanCore

extension DiagnosticCode {
    /// CP402 LockedVersionMissing: the lock names a version the bundle no longer has.
    ///
    /// Raised in `ChainLock.swift`.
    public static let lockedVersionMissing = DiagnosticCode(
        "CP402", name: "LockedVersionMissing", severity: .error,
        summary: "The lock names a version the bundle no longer has",
        help: "A shipped version was deleted or renamed; stores at that version can no longer be opened.",
        examples: [
            .project("V1 was locked and then deleted", files: [ProjectExampleFiles.spec(["V2", "V3"]), ProjectExampleFiles.version("V2", ProjectExampleFiles.note), ProjectExampleFiles.version("V3", ProjectExampleFiles.noteWithBody), ProjectExampleFiles.current("V3")],
                         lockedFiles: [ProjectExampleFiles.spec(["V1", "V2", "V3"]), ProjectExampleFiles.version("V1", ProjectExampleFiles.note), ProjectExampleFiles.version("V2", ProjectExampleFiles.note), ProjectExampleFiles.version("V3", ProjectExampleFiles.noteWithBody), ProjectExampleFiles.current("V3")],
                         expected: 1),
            .project("every locked version is still there", files: ProjectExampleFiles.project([ProjectExampleFiles.note, ProjectExampleFiles.noteWithBody]), lockedFiles: ProjectExampleFiles.project([ProjectExampleFiles.note, ProjectExampleFiles.noteWithBody]),
                         expected: 0),
        ])
}

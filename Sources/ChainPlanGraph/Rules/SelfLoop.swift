import ChainPlanCore

extension DiagnosticCode {
    /// CP103 SelfLoop: a version migrates to itself.
    package static let selfLoop = DiagnosticCode(
        "CP103", name: "SelfLoop", severity: .error,
        summary: "A version migrates to itself",
        help: "`\"A\": \"A\"` is a no-op that CoreStore silently ignores; the version then has no way forward. Point it at its real successor or remove the entry.",
        examples: [
            .chain("tree entry to itself", spec: "{\"A\": \"B\",\n \"B\": \"B\"}", expected: [(2, 2)]),
            .chain("array repeating a version in a row", spec: #"["A", "A", "B"]"#, expected: [(1, 7)]),
            .chain("YAML", spec: "V1: V1\n", syntax: .yaml, expected: [(1, 1)]),
            .chain("no self-loop", spec: #"{"A": "B"}"#, expected: []),
        ])
}

/// CP103: a version migrates to itself (`"A": "A"`), which CoreStore silently ignores,
/// leaving the version without a way forward.
package struct SelfLoopCheck: ChainCheck {
    package static let code = DiagnosticCode.selfLoop

    package init() {}

    package func check(_ context: ChainContext) -> [Diagnostic] {
        var findings = FindingList(Self.code)
        switch context.spec.form {
        case .tree:
            for entry in context.spec.treeEntries where entry.source.value == entry.destination.value {
                findings.add(Diagnostic(Self.code, "version '\(entry.source.value)' migrates to itself", at: entry.source.location,
                                        versions: [entry.source.value]))
            }
        case .array:
            let entries = context.spec.arrayEntries
            for (previous, entry) in zip(entries, entries.dropFirst()) where previous.value == entry.value {
                findings.add(Diagnostic(Self.code, "version '\(entry.value)' follows itself, so it migrates to itself", at: entry.location,
                                        versions: [entry.value]))
            }
        case .empty, .single:
            break
        }
        return findings.finished(at: context.spec.chainLocation)
    }
}

/// CP103: a version migrates to itself (`"A": "A"`), which CoreStore silently ignores,
/// leaving the version without a way forward.
public struct SelfLoopCheck: ChainCheck {
    public static let code = DiagnosticCode.cp103
    public static let examples = [
        CheckExample("tree entry to itself", spec: "{\"A\": \"B\",\n \"B\": \"B\"}", expected: [(2, 2)]),
        CheckExample("array repeating a version in a row", spec: #"["A", "A", "B"]"#, expected: [(1, 7)]),
        CheckExample("YAML", spec: "V1: V1\n", syntax: .yaml, expected: [(1, 1)]),
        CheckExample("no self-loop", spec: #"{"A": "B"}"#, expected: []),
    ]

    public init() {}

    public func check(_ context: ChainContext) -> [Diagnostic] {
        switch context.spec.form {
        case .tree:
            return context.spec.treeEntries.filter { $0.source.value == $0.destination.value }.map {
                Diagnostic(Self.code, "version '\($0.source.value)' migrates to itself", at: $0.source.location,
                           versions: [$0.source.value])
            }
        case .array:
            let entries = context.spec.arrayEntries
            return zip(entries, entries.dropFirst()).filter { $0.value == $1.value }.map {
                Diagnostic(Self.code, "version '\($1.value)' follows itself, so it migrates to itself", at: $1.location,
                           versions: [$1.value])
            }
        case .empty, .single:
            return []
        }
    }
}

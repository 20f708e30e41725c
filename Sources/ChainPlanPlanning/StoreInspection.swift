import Foundation

/// What `chainplan inspect --store S.sqlite [BUNDLE]` reports about a store: its model version
/// (with a bundle), the deferred lightweight migration work it holds or a stale metadata key
/// (reference §7.3), and the findings (CP300 unreadable, CP305 deferred columns that do not
/// match its version).
public struct StoreInspection: Sendable, Hashable, Encodable {
    public var path: String
    public var detectedVersion: String?
    /// `hashes`, `identifiers` or `structure`; nil without a bundle or when undecided.
    public var evidence: String?
    /// Nil when the store could not be read.
    public var deferred: PendingDeferredWork?
    public var diagnostics: [Diagnostic]

    package init(path: String, detectedVersion: String? = nil, evidence: String? = nil, deferred: PendingDeferredWork?, diagnostics: [Diagnostic]) {
        self.path = path
        self.detectedVersion = detectedVersion
        self.evidence = evidence
        self.deferred = deferred
        self.diagnostics = diagnostics
    }

    enum CodingKeys: String, CodingKey { case store, detectedVersion, evidence, deferred, diagnostics }

    /// Every key present, null when unknown.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .store)
        try container.encode(detectedVersion, forKey: .detectedVersion)
        try container.encode(evidence, forKey: .evidence)
        try container.encode(deferred, forKey: .deferred)
        try container.encode(diagnostics, forKey: .diagnostics)
    }
}

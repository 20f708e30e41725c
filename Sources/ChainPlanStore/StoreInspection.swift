import ChainPlanCore
import Foundation

/// What `chainplan inspect --store S.sqlite [BUNDLE]` reports about a store: its model version
/// (with a bundle), the deferred lightweight migration work it holds or a stale metadata key
/// (reference §7.3), and the findings (CP300 unreadable, CP305 deferred columns that do not
/// match its version).
package struct StoreInspection: Sendable, Hashable, Encodable {
    package var path: String
    /// Every key is present in JSON, null when unknown.
    @ExplicitNull package var detectedVersion: String?
    /// `hashes`, `identifiers` or `structure`; nil without a bundle or when undecided.
    @ExplicitNull package var evidence: String?
    /// Nil when the store could not be read.
    @ExplicitNull package var deferred: PendingDeferredWork?
    package var diagnostics: [Diagnostic]

    package init(path: String, detectedVersion: String? = nil, evidence: String? = nil, deferred: PendingDeferredWork?, diagnostics: [Diagnostic]) {
        self.path = path
        self.detectedVersion = detectedVersion
        self.evidence = evidence
        self.deferred = deferred
        self.diagnostics = diagnostics
    }

    enum CodingKeys: String, CodingKey { case path = "store", detectedVersion, evidence, deferred, diagnostics }
}

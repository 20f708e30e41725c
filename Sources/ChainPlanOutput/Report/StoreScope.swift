import ChainPlanCore
import ChainPlanPlanning
/// A dry run whose store cannot be used (issue 19 §2, scoping): only the store's findings are
/// reported. A mistyped `--store` used to print CP300 followed by every unrelated finding of
/// the chain; those belong to `validate`, and the run stops at the store.
///
///     dry-run --store missing.sqlite on a chain with warnings
///       → CP300 only (exit 2), and a note that n chain findings were left to validate
package enum StoreScope {
    /// The codes that speak about the store (CP3xx).
    static func isAboutTheStore(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.code.rawValue.hasPrefix("CP3")
    }

    /// `report` with only the store's findings, nil when the store is usable. A store that
    /// cannot be used (missing, unreadable, unknown version) leaves the chain unreported: its
    /// steps, paths (and so the direct jumps and deferrals) and findings are dropped; unusable spec
    /// or model findings stay, since the run could not start without them. `leftOut` counts the
    /// dropped findings.
    package static func scoped(_ report: ChainReport) -> (report: ChainReport, leftOut: Int)? {
        let storeUnusable = report.diagnostics.contains { isAboutTheStore($0) && $0.code.unusableInput && $0.severity == .error }
        guard storeUnusable else { return nil }
        let kept = report.diagnostics.filter { isAboutTheStore($0) || ($0.code.unusableInput && $0.severity == .error) }
        var scoped = report
        scoped.diagnostics = kept
        scoped.summary = ChainReport.Summary(diagnostics: kept)
        scoped.steps = []
        scoped.paths = []
        return (scoped, report.diagnostics.count - kept.count)
    }
}

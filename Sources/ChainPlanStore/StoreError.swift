import ChainPlanCore
/// A store (or compiled model) that cannot be used: carries the finding to report.
///
/// Thrown by the Store layer for every unusable input (missing file, directory, not a
/// database, truncated, locked, not a Core Data store, …). The diagnostic is always
/// CP300 for stores (CP111 for an unreadable compiled model), located at the display path.
package struct StoreError: Error, Sendable, Hashable, CustomStringConvertible {
    package var diagnostic: Diagnostic

    package init(_ diagnostic: Diagnostic) {
        self.diagnostic = diagnostic
    }

    /// A CP300 error for the store shown as `displayPath`.
    static func unreadable(_ displayPath: String, _ reason: String) -> StoreError {
        StoreError(Diagnostic(.unreadableStore, "store '\(displayPath)' \(reason)", at: SourceLocation(file: displayPath)))
    }

    package var description: String { diagnostic.message }
}

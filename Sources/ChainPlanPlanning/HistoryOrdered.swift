import ChainPlanCore
extension ChainReport {
    /// Sets `diagnostics` (in history order, see `HistoryOrder`) and recounts the summary: the
    /// one way a report's findings are replaced once the report is made.
    package mutating func setFindings(_ diagnostics: [Diagnostic]) {
        self.diagnostics = HistoryOrder.sorted(diagnostics, versions: versions)
        summary = Summary(diagnostics: self.diagnostics)
    }
}

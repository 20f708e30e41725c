import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation

extension ChainPlanner {
    /// The multi-pass plan of `from` → `to` under the rule configuration that governs `url` (as
    /// every other command: `configuration`, else `.chainplan.yml` beside the spec): its severities
    /// (and `off`) apply to the findings, and its `heavyweight-memory-mb` is the budget when
    /// `maxMemoryBytes` is nil. The passes are sized by the rows of the store at `storePath` (read
    /// from a private copy) when one is given; the store is identified by its version hashes, as
    /// the dry run does, and a store at another version than `from` is CP708 (one that matches no
    /// version, or several, is CP301 or CP302). An unreadable store is CP300; an unusable
    /// configuration is CP130.
    public func passes(inputAt url: URL, from: String, to: String, storeAt storePath: String?, maxMemoryBytes: Int?,
                       configuration: URL? = nil, lockTimeout: TimeInterval = 5) -> Result<PassReport, PassFailure> {
        let run: ConfiguredRun
        switch configured(inputAt: url, configuration: configuration) {
        case .failure(let failure): return .failure(PassFailure(failure.diagnostics))
        case .success(let configured): run = configured
        }
        let budget = maxMemoryBytes ?? run.rules.heavyweightMemoryMB.map { $0 << 20 }
        let planned = run.planner.planWithBundle(inputAt: url)
        var storeFindings: [Diagnostic] = []
        var rows: [String: PassRows]?
        var shown: String?
        if let storePath {
            let display = DisplayPath.make(URL(fileURLWithPath: storePath), relativeTo: options.baseDirectory)
            do {
                let read = try StoreEntityRowCounts.read(storeAt: storePath, displayPath: display, versions: planned.bundle?.versions ?? [],
                                                         lockTimeout: lockTimeout)
                (rows, shown) = (read.rows, display)
                storeFindings = Self.storeVersionFindings(read.identification, from: from, to: to, store: display)
            } catch {
                return .failure(PassFailure([error.diagnostic]))
            }
        }
        return run.planner.passes(planned: planned, from: from, to: to, rows: rows, store: shown, maxMemoryBytes: budget).map { report in
            var report = report
            report.diagnostics = run.rules.apply(to: report.diagnostics + storeFindings).sorted()
            return report
        }
    }

    /// Whether the store that sizes the passes is at the step's source version: nothing when it is,
    /// CP708 when its hashes name another version, the identification's own CP301/CP302 when they
    /// name none or several.
    static func storeVersionFindings(_ identification: StoreIdentification, from: String, to: String, store: String) -> [Diagnostic] {
        guard let detected = identification.detectedVersion else { return identification.diagnostics }
        guard detected != from else { return [] }
        return [.passStoreNotAtSource(store, detected: detected, from: from, to: to)]
    }
}

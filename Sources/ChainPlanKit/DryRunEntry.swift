import ChainPlanPlanning
import ChainPlanStore
import Foundation

extension ChainPlanner {
    /// Plans the input, then reads a private copy of the store at `storePath` (never the store
    /// itself; the copy is removed before this returns), identifies its model version, and
    /// describes the path from that version with the tables and rows each step touches.
    public func dryRun(inputAt url: URL, storeAt storePath: String, options dryRun: DryRunOptions) -> DryRunReport {
        StoreDryRun.run(planWithBundle(inputAt: url), storeAt: storePath, options: dryRun, baseDirectory: options.baseDirectory)
    }
}

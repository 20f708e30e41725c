import Foundation

extension ChainPlanner {
    /// The multi-pass plan of `from` → `to`, its passes sized by the rows of the store at
    /// `storePath` (read from a private copy) when one is given. An unreadable store is CP300.
    public func passes(inputAt url: URL, from: String, to: String, storeAt storePath: String?, maxMemoryBytes: Int?,
                       lockTimeout: TimeInterval = 5) -> Result<PassReport, PassFailure> {
        let planned = planWithBundle(inputAt: url)
        guard let storePath else {
            return passes(planned: planned, from: from, to: to, rows: nil, store: nil, maxMemoryBytes: maxMemoryBytes)
        }
        let shown = DisplayPath.make(URL(fileURLWithPath: storePath), relativeTo: options.baseDirectory)
        do {
            let rows = try StoreEntityRowCounts.read(storeAt: storePath, displayPath: shown, lockTimeout: lockTimeout)
            return passes(planned: planned, from: from, to: to, rows: rows, store: shown, maxMemoryBytes: maxMemoryBytes)
        } catch {
            return .failure(PassFailure([error.diagnostic]))
        }
    }
}

import ChainPlanCore
import Foundation

// Planning results that the API target (ChainPlanKit) builds. Swift's memberwise initialisers
// are internal to this module; these make the same values at `package` access.

extension RuleConfiguration.ReadResult {
    package static func made(configuration: RuleConfiguration?, diagnostics: [Diagnostic]) -> Self {
        Self(configuration: configuration, diagnostics: diagnostics)
    }
}

extension LockPlan {
    package static func made(lock: ChainLock?, file: URL, report: ChainReport, missing: [String]) -> Self {
        Self(lock: lock, file: file, report: report, missing: missing)
    }
}

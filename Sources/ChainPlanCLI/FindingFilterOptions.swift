import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import ChainPlanReaders
import Foundation

extension Severity: ExpressibleByArgument {}

/// Which findings `validate` reports: a baseline of known findings, only what changed since a
/// version, a minimum severity. Filtering happens before any format is rendered and before the
/// exit status is decided, so every format and the gate agree; what was left out is said on
/// standard error (so reports stay byte-identical to an unfiltered run's shape).
struct FindingFilterOptions: ParsableArguments {
    @Option(name: .customLong("baseline"), help: ArgumentHelp(
        "Report only findings not recorded in this baseline (written by --write-baseline); says how many it matched.",
        valueName: "file"))
    var baseline: String?

    @Option(name: .customLong("write-baseline"), help: ArgumentHelp(
        "Record today's findings (by code, versions and the names they quote, not line numbers) in this file, then report as usual.",
        valueName: "file"))
    var writeBaseline: String?

    @Option(name: .customLong("since"), help: ArgumentHelp(
        "Report only findings about steps and jumps that reach a version after this one (a pull request's new model).",
        valueName: "version"))
    var since: String?

    @Option(name: .customLong("min-severity"), help: ArgumentHelp(
        "Report only findings at or above this severity: note, warning or error.", valueName: "severity"))
    var minSeverity: Severity?

    @Flag(help: "Report errors only (the same as --min-severity error).")
    var quiet = false

    /// Applies the options to `report` in order: write the baseline (of every finding), apply
    /// `--since`, the baseline, then the severity floor; the summary is recounted.
    func apply(to report: inout ChainReport) throws {
        if let writeBaseline {
            let data = try Baseline(diagnostics: report.diagnostics).jsonData()
            do {
                try data.write(to: URL(fileURLWithPath: writeBaseline))
            } catch {
                throw UsageError("cannot write baseline '\(writeBaseline)': \(error.localizedDescription)")
            }
            let count = Baseline(diagnostics: report.diagnostics).findings.count
            notice("wrote baseline '\(writeBaseline)' with \(count) finding\(count == 1 ? "" : "s")")
        }
        var diagnostics = report.diagnostics
        if let since {
            guard let index = report.versions.firstIndex(of: since) else {
                throw UsageError(VersionHint.notInChain(since, versions: report.versions))
            }
            let later = Set(report.versions[(index + 1)...])
            let before = diagnostics.count
            diagnostics = diagnostics.filter { $0.versions.isEmpty || $0.versions.contains(where: later.contains) }
            let left = before - diagnostics.count
            if left > 0 { notice("\(left) finding\(left == 1 ? "" : "s") about versions up to '\(since)' not reported (--since)") }
        }
        if let baseline {
            let recorded: Baseline
            do {
                recorded = try Baseline.read(from: URL(fileURLWithPath: baseline), displayPath: baseline)
            } catch {
                throw UsageError("\(error)")
            }
            let applied = recorded.apply(to: diagnostics)
            diagnostics = applied.diagnostics
            notice("\(applied.suppressed) finding\(applied.suppressed == 1 ? "" : "s") suppressed by baseline '\(baseline)'")
        }
        if let floor = quiet ? .error : minSeverity {
            let before = diagnostics.count
            diagnostics = diagnostics.filter { $0.severity >= floor || Baseline.keepsAlways($0) }
            let left = before - diagnostics.count
            if left > 0, !quiet { notice("\(left) finding\(left == 1 ? "" : "s") below \(floor.rawValue) not reported") }
        }
        if diagnostics != report.diagnostics {
            report.diagnostics = diagnostics
            report.summary = ChainReport.Summary(diagnostics: diagnostics)
        }
    }

    private func notice(_ text: String) {
        FileHandleOutput.standardError.write("chainplan: \(text)\n")
    }
}

/// The usage error for a version that is not in the chain, with the nearest names.
enum VersionHint {
    static func notInChain(_ name: String, versions: [String]) -> String {
        let hint = NameSuggestions.nearest(to: name, among: versions)
        return "version '\(name)' is not in the chain" + (hint.isEmpty ? "" : "; did you mean \(NameSuggestions.phrase(hint))?")
    }

    /// The message for a version a bundle does not hold: the nearest names (case-only differences
    /// first, as in the chain), else every version the bundle has.
    static func notInBundle(_ name: String, versions: [String]) -> String {
        let hint = NameSuggestions.nearest(to: name, among: versions)
        return "the bundle has no version '\(name)'; "
            + (hint.isEmpty ? "it has: " + versions.map { "'\($0)'" }.joined(separator: ", ") : "did you mean \(NameSuggestions.phrase(hint))?")
    }
}

import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanPlanning
import Foundation

/// `chainplan lock`: record the shipped model versions so later edits to them are caught.
struct LockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Write chain.lock: the Core Data version hashes of the shipped model versions.",
        discussion: """
            For each shipped version (every version except the target, or --versions), its Core Data \
            version checksum and every entity's version hash, with four hex digits per hash input so \
            a change can be named. Commit the file; `chainplan validate` then reports CP401 when a \
            locked version's hashes change (a store made by the shipped version no longer matches it) \
            and CP402 when one is deleted. Edits that move no hash (whitespace, renaming identifiers, \
            defaults) are not changes. Run it again when a new version ships: it adds the version and \
            keeps every locked one as it was locked; rewriting or dropping a locked version needs \
            --force, and is reported. Versions whose hashes rest on an input Core Data's behaviour \
            does not confirm are marked unverified.

            Examples:
              chainplan lock
              chainplan lock Chains/notas/chain.json --versions "Notas,Notas 2"
            """
    )

    @OptionGroup var input: InputOptions

    @Option(help: ArgumentHelp("The versions to lock, separated by commas (default: all but the target).", valueName: "names"))
    var versions: String?

    @Flag(help: "Rewrite the lock from the bundle: locked versions whose hashes changed are rewritten, ones not chosen are dropped (each reported).")
    var force = false

    @OptionGroup var color: ColorOptions
    @OptionGroup var result: WrittenFileOptions

    func run() async throws {
        let requested = versions.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        let plan = ChainPlanner(options: input.planOptions()).lock(inputAt: try input.resolveSpec(), versions: requested, force: force,
                                                                   configuration: input.configURL)
        // A configuration that cannot be used stops the run, as in validate (CP130, exit 2).
        let configurationProblems = plan.report.diagnostics.filter { $0.code == .invalidConfiguration }
        if !configurationProblems.isEmpty { throw UsageError(findings: configurationProblems) }
        if let refusal = plan.refusal { throw UsageError(refusal) }
        guard let lock = plan.lock else {
            throw UsageError(findings: plan.report.diagnostics.filter { $0.code.unusableInput },
                             "nothing to lock: the spec names no readable model bundle")
        }
        guard plan.missing.isEmpty else {
            throw UsageError("cannot lock \(plan.missing.map { "'\($0)'" }.joined(separator: ", ")): not a readable version of the bundle")
        }
        try FileHandleOutput.write(Data(lock.text.utf8), to: plan.file.path, announce: false)
        let display = DisplayPath.make(plan.file, relativeTo: DisplayPath.currentDirectory)
        result.wrote(display, command: "lock", line: ([Self.summary(display, lock: lock, plan: plan)] + Self.notes(plan)).joined(separator: "\n"),
                     details: ["versions": lock.versions.map(\.name), "added": plan.added, "kept": plan.kept, "rewritten": plan.rewritten,
                               "dropped": plan.dropped, "unverified": plan.unverified])
        // A locked version whose hashes changed is kept as locked: the edit is the finding (CP401).
        if !plan.kept.isEmpty { throw ExitCode(1) }
    }


    /// `wrote chain.lock: 3 versions locked`, with what changed when there was a lock before.
    static func summary(_ display: String, lock: ChainLock, plan: LockPlan) -> String {
        "wrote \(display): \(lock.versions.count) version\(lock.versions.count == 1 ? "" : "s") locked"
            + (plan.added.count == lock.versions.count || plan.added.isEmpty ? "" : " (added \(plan.added.quotedList))")
    }

    /// One line per locked version kept, rewritten or dropped, and one for unverified hashes.
    static func notes(_ plan: LockPlan) -> [String] {
        var lines: [String] = []
        if !plan.kept.isEmpty {
            lines.append("chainplan: error: kept \(plan.kept.quotedList) as locked: \(plan.kept.count == 1 ? "its" : "their") Core Data version hashes changed "
                         + "since \(plan.kept.count == 1 ? "it was" : "they were") locked (CP401); `chainplan lock --force` rewrites \(plan.kept.count == 1 ? "it" : "them")")
        }
        if !plan.rewritten.isEmpty { lines.append("chainplan: warning: rewrote the locked \(plan.rewritten.quotedList) from the bundle (--force)") }
        if !plan.dropped.isEmpty { lines.append("chainplan: warning: dropped the locked \(plan.dropped.quotedList) (--force)") }
        if !plan.unverified.isEmpty {
            lines.append("chainplan: note: the hashes of \(plan.unverified.quotedList) are unverified: they rest on an input whose place in Core Data's hash "
                         + "is read from code only or left open (see `chainplan hash`)")
        }
        return lines
    }
}

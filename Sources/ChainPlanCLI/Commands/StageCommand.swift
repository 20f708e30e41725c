import ArgumentParser
import ChainPlanCore
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import ChainPlanStore
import ChainPlanSwiftSource
import Foundation

/// `chainplan stage`: the staged migration plan (`NSStagedMigrationManager`) for the chain, proved
/// against Core Data's rules, or an existing stage list audited.
struct StageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stage",
        abstract: "Plan staged migration (NSStagedMigrationManager, iOS 17+) for the chain, or audit a stage list.",
        discussion: """
        Custom stages where a step is not inferable, needs data work or is listed under `stages` \
        in the spec; lightweight stages for the gaps; every jump the runtime executes classified, \
        and a handler-less custom stage inserted where a jump fails or drops data that stepping \
        keeps. Then Core Data's rules are checked and every start version simulated: which stages \
        run, each jump, which handlers run at which model, and the expected error.

        Checksums are computed from the model files by Core Data's version-hash algorithm, or \
        read from the compiled model (--momd X.momd, its VersionInfo.plist); a version whose \
        hash rests on an unverified input gets none. --check audits a stage list (JSON, or a Swift source's checksum \
        literals) instead. SwiftData sources whose SchemaMigrationPlan has stages are audited the \
        same way: the plan's stages, translated into Core Data's, are the stage list. A plan \
        whose stages are empty gets what SwiftData does today (every store straight to the last \
        schema) and the stages it needs, in SwiftData's terms (--format swift writes them). \
        Exit 1 when a finding is an error.

        Examples:
          chainplan stage Chains/aircraft-staged/chain.json
          chainplan stage chain.json --momd Build/App.momd --format json -o stages.json
          chainplan stage chain.json --momd Build/App.momd --check stages.json
          chainplan stage chain.json --write-models
          chainplan stage Sources/Models
        """
    )

    @OptionGroup var input: InputOptions

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown, swift, corestore
    }

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file.")
    var output: String?

    @Option(help: ArgumentHelp("The compiled model (X.momd) whose VersionInfo.plist gives each version's checksum.", valueName: "path"))
    var momd: String?

    @Option(help: ArgumentHelp("Audit this stage list (JSON, or .swift) instead of planning.", valueName: "file"))
    var check: String?

    @Flag(help: "Write the decompositions' intermediate versions into the bundle as new .xcdatamodel folders (never overwriting one: CP514) and print the spec's new \"chain\" and \"stages\" values.")
    var writeModels = false

    @OptionGroup var color: ColorOptions

    func run() async throws {
        let spec = try input.resolveSpec()
        let options = try input.configuredPlanOptions(for: spec)
        var identities: VersionIdentities?
        if let momd {
            do {
                identities = VersionIdentities(compiled: try CompiledModelInfo.read(momdAt: momd))
            } catch {
                throw UsageError("cannot read the compiled model: \(error)")
            }
        }
        let configured = RuleConfiguration.governing(inputAt: spec, file: input.configURL).configuration
        // SwiftData sources with a plan: the app's own stages are the plan; audit them as they run.
        // A plan without stages: what SwiftData does today, and the stages it needs.
        var stageless: (plan: SwiftMigrationPlan, loaded: ProjectLoader.Loaded)?
        if check == nil, !writeModels, let swiftData = ChainPlanner(options: options).swiftDataStages(inputAt: spec) {
            guard momd == nil, format != .corestore, format != .markdown else {
                throw UsageError("the app's SchemaMigrationPlan is its stage list: stage shows it as text, json or swift; --momd, --format corestore and --format markdown apply to Core Data models")
            }
            switch swiftData {
            case .audited(let plan, let starts, let audited):
                guard format != .swift else {
                    throw UsageError("the app's SchemaMigrationPlan has stages: stage audits them (text or json); --format swift writes the stages of a plan that has none")
                }
                let notRun = starts == nil
                    ? "No start is simulated: the container fails before any stage runs, or a stage or a schema cannot be read (see the findings).\n" : nil
                let findings = configured.map { $0.apply(to: audited).sorted() } ?? audited
                try report(title: "Audit of \(Self.shown(plan)), translated into stages,", starts: starts, findings: findings, notRun: notRun)
                return
            case .withoutStages(let plan, let loaded):
                stageless = (plan, loaded)
            }
        }
        // Without --momd, the checksums come from the model files by Core Data's hash algorithm.
        let outcome = ChainPlanner(options: options).stagePlan(inputAt: spec, loaded: stageless?.loaded,
                                                               identities: { [identities] _ in identities }, computingIdentities: true,
                                                               marked: configured?.customStages ?? [])
        identities = outcome.identities
        guard let plan = outcome.plan else {
            throw UsageError(findings: outcome.report.diagnostics.filter { $0.severity == .error }, outcome.problem ?? "no stage plan")
        }
        if let check {
            try audit(check, plan: plan, identities: identities, specURL: spec, options: options)
            return
        }
        if writeModels {
            try write(Data(try StageModelWriting.write(plan, outcome: outcome, configured: configured?.customStages ?? []).utf8))
            return
        }
        if let stageless {
            try showNeeded(stageless.plan, report: outcome.report, plan: plan)
            return
        }
        let data: Data
        switch format {
        case .text: data = Data(StagePlanRendering.text(plan).utf8)
        case .json: data = StagePlanRendering.json(plan)
        case .markdown: data = Data(StagePlanRendering.markdown(plan).utf8)
        case .swift:
            // Checksum constants must be Core Data's: never made up.
            guard let source = StagePlanSwift.render(plan, deferred: outcome.deferring) else {
                throw UsageError("--format swift needs every version's checksum: some versions' hashes rest on unverified inputs; pass --momd with the compiled model (X.momd)")
            }
            data = Data(source.utf8)
        case .corestore:
            // CoreStore's storage options have no place for the deferral option: refuse rather
            // than write code that silently migrates without it.
            if outcome.deferring {
                throw UsageError("--format corestore does not set NSPersistentStoreDeferredLightweightMigrationOptionKey; use --format swift for deferred lightweight migration")
            }
            data = Data(StagePlanCoreStore.render(plan).utf8)
        }
        try write(data)
        try ExitStatus.finish(plan.findings, strict: false)
    }

    /// A SwiftData plan without stages: each start's plain automatic migration today, and the
    /// stages the plan needs (chainplan's stage plan in SwiftData's terms), as text, JSON or Swift.
    private func showNeeded(_ swiftPlan: SwiftMigrationPlan, report chain: ChainReport, plan: StagePlan) throws {
        let suggestion = SwiftDataStageSuggestion(plan: swiftPlan, report: chain, stagePlan: plan)
        let shown = Self.shown(swiftPlan)
        switch format {
        case .json: try write(SwiftDataStageRendering.json(suggestion, plan: plan))
        case .swift:
            guard !suggestion.unreadable else { throw UsageError("which stages \(shown) needs is not known: a schema cannot be read without a build (see chainplan validate)") }
            guard !suggestion.stages.isEmpty else { throw UsageError("\(shown) needs no stage: every older schema's store migrates by inference") }
            try write(Data(SwiftDataStageRendering.swift(suggestion).utf8))
        case .text, .markdown, .corestore: try write(Data(SwiftDataStageRendering.text(suggestion, plan: plan, shown: shown).utf8))
        }
        // Today's failures are the chain's errors (validate reports them); the suggestion's are the plan's.
        try ExitStatus.finish(chain.diagnostics + (suggestion.stages.isEmpty ? [] : plan.findings), strict: false)
    }

    /// `plan 'AppMigrationPlan' (Sources/Plan.swift)`.
    private static func shown(_ plan: SwiftMigrationPlan) -> String {
        plan.location.map { "plan '\(plan.name)' (\($0.file))" } ?? "plan '\(plan.name)'"
    }

    private func write(_ data: Data) throws {
        try FileHandleOutput.write(data, to: output)
    }

    private func audit(_ path: String, plan: StagePlan, identities: VersionIdentities?, specURL: URL, options: PlanOptions) throws {
        guard let identities else {
            throw UsageError("--check compares checksums with the model's: pass --momd with the compiled model")
        }
        let url = URL(fileURLWithPath: path)
        let text: String
        switch FileAccess.readRegularFile(at: url, maxBytes: StageListAudit.maxBytes) {
        case .failure(let problem): throw UsageError("cannot read '\(path)': \(problem.description)")
        case .success(let data):
            guard let decoded = String(validating: data, as: UTF8.self) else { throw UsageError("'\(path)' is not valid UTF-8") }
            text = decoded
        }
        let planned = ChainPlanner(options: options).stageAuditInput(inputAt: specURL, identities: identities, order: plan.starts.map(\.version))
        guard let auditInput = planned else { throw UsageError("no model bundle was read") }
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let (starts, findings) = StageListAudit.audit(text, file: display, input: auditInput)
        if findings.contains(where: { $0.code == .unreadableSpec }) { throw UsageError(findings: findings) }
        try report(title: "Audit of \(display)", starts: Optional(starts), findings: findings)
    }

    /// An audit's findings and each start's run (nil: none simulated, and no `starts` in JSON),
    /// as `--check` prints them (JSON, else text); `notRun` says why no start was simulated.
    private func report(title: String, starts: [StageRun]?, findings: [Diagnostic], notRun: String? = nil) throws {
        let data: Data
        switch format {
        case .json: data = JSONEnvelope.encode(StageAuditDocument(starts: starts, findings: findings))
        case .text, .markdown, .swift, .corestore:
            var out = "\(title) against Core Data's staged-migration rules: "
            out += findings.isEmpty ? "all pass\n" : "\(findings.count) finding(s)\n"
            for finding in findings { out += "  " + TextReporter.line(for: finding, color: false) + "\n" }
            if let starts, !starts.isEmpty { out += "\nPer start:\n" + starts.map(StagePlanRendering.startLine).joined() }
            if let notRun { out += "\n" + notRun }
            data = Data(out.utf8)
        }
        try write(data)
        try ExitStatus.finish(findings, strict: false)
    }
}

/// `stage --check --format json`.
struct StageAuditDocument: Encodable {
    /// Absent when no start was simulated.
    var starts: [StageRun]?
    var findings: [Diagnostic]
}

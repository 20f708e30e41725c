import ChainPlanCore
import ChainPlanHistory
import ChainPlanPlanning
import ChainPlanStore
import ChainPlanSwiftSource
import Foundation
import GRDB

extension RuleExample {
    /// The example itself could not be set up (a folder or store not written, a fixture version
    /// the bundle lacks): a fault of the example or the machine, never a finding about the input.
    public struct HarnessFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Runs the example as `chainplan rules CPnnn` and its test do: every finding of the run.
    /// Throws only when a project folder cannot be set up, rather than reporting that as the
    /// user's CP111.
    public func run() throws(HarnessFailure) -> [Diagnostic] {
        switch input {
        case let .chain(spec, syntax, bundleVersions, currentVersion):
            RuleExampleRuns.chain(spec: spec, syntax: syntax, bundleVersions: bundleVersions, currentVersion: currentVersion)
        case let .versions(versions, mappingModelOnFirstStep):
            RuleExampleRuns.classify(versions, mappingModelOnFirstStep: mappingModelOnFirstStep)
        case let .stages(versions, sameChecksum, stages):
            RuleExampleRuns.stages(versions, sameChecksum: sameChecksum, stages: stages).findings
        case .project(let project):
            try project.run()
        case .swift(let files):
            SwiftDataReader.read(files: files.map { (path: $0.path, text: $0.text) }).diagnostics
        }
    }

    /// chainplan's own stage plan for a staged-migration example's versions (its stage list
    /// ignored); nil for other examples.
    public func stagePlan() -> StagePlan? {
        guard case let .stages(versions, sameChecksum, _) = input else { return nil }
        return RuleExampleRuns.stages(versions, sameChecksum: sameChecksum, stages: nil).plan
    }

    /// The input as `chainplan rules CPnnn` shows it.
    public var shownInput: String {
        switch input {
        case .chain(let spec, _, _, _):
            return spec
        case let .versions(versions, mappingModelOnFirstStep):
            return zip(RuleExample.versionNames(versions.count), versions).map { "\($0): \($1)" }.joined(separator: "\n")
                + (mappingModelOnFirstStep ? "\n(a mapping model covers V1 → V2)" : "")
        case let .stages(versions, _, stages):
            var lines = zip(RuleExample.versionNames(versions.count), versions).map { "\($0): \($1)" }
            if let stages {
                lines.append("stages: " + stages.map { "\($0.first ?? "")(\($0.dropFirst().joined(separator: ", ")))" }.joined(separator: ", "))
            } else {
                lines.append("(chainplan's own stage plan)")
            }
            return lines.joined(separator: "\n")
        case .project(let project):
            return project.shownInput
        case .swift(let files):
            var out: [String] = []
            for file in files {
                out.append("\(file.path):")
                out += file.text.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
            }
            out.append("run: chainplan hash .")
            return out.joined(separator: "\n")
        }
    }
}

extension RuleExample.Project {
    /// The input as shown by `chainplan rules`: every file with its text, then how the lock and
    /// the store were made.
    public var shownInput: String {
        var out: [String] = []
        func show(_ file: RuleExample.File) {
            out.append("\(file.path):")
            out += file.text.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
        }
        if let shippedFiles {
            out.append("a git repository whose commit tagged 'shipped' held:")
            for file in shippedFiles { show(file) }
            out.append("then the folder holds:")
            files.forEach(show)
            out.append("run: chainplan validate \(input == "chain.json" ? "" : "\(input) ")--against \(against)")
        } else if let lockedFiles {
            out.append("chain.lock: written by 'chainplan lock' when the folder held:")
            for file in lockedFiles { show(file) }
            let now = Set(files.map(\.path))
            let deleted = lockedFiles.map(\.path).filter { !now.contains($0) }
            let changed = files.filter { !lockedFiles.contains($0) }
            out.append("then" + (deleted.isEmpty ? "" : " \(deleted.joined(separator: ", ")) deleted") + (changed.isEmpty ? "" : (deleted.isEmpty ? "" : " and") + " changed to") + ":")
            changed.forEach(show)
        } else {
            files.forEach(show)
        }
        if writesModels {
            out.append("run: chainplan stage \(input) --write-models")
        } else if plansStages {
            out.append("run: chainplan stage \(input)")
        } else if let passes, store == nil {
            out.append("run: chainplan passes \(input) \(passes.from) \(passes.to)")
        } else if passes == nil, input != "chain.json" {
            out.append("run: chainplan validate \(input)")
        }
        if let store {
            if let text = store.text {
                out.append("store.sqlite: a file holding \(text.debugDescription)")
            } else {
                out.append("store.sqlite: chainplan fixture --model-version \(store.version ?? "?") --rows \(store.rows)"
                    + (store.sql.isEmpty ? "" : ", then: " + store.sql.joined(separator: "; ")))
            }
            if let passes {
                out.append("run: chainplan passes \(input) \(passes.from) \(passes.to) --store store.sqlite")
            } else {
                out.append("run: chainplan dry-run \(input == "chain.json" ? "" : "\(input) ")--store store.sqlite" + (store.memoryLimitMB.map { " --memory-limit \($0)" } ?? "")
                    + (store.simulate ? "" : " --no-simulate"))
            }
        }
        return out.joined(separator: "\n")
    }

    /// Writes the folder to a private temporary directory, runs the real pipeline on it (and
    /// removes it): every finding, with paths relative to the folder. Throws when the example
    /// cannot be set up, rather than reporting that as the user's CP111.
    public func run() throws(RuleExample.HarnessFailure) -> [Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var options = PlanOptions()
            options.baseDirectory = folder
            let spec = folder.appendingPathComponent(input)
            if let shippedFiles {
                try write(shippedFiles, in: folder)
                try ExampleRepository.commit(folder, tag: "shipped")
                try remove(shippedFiles, from: folder)
                try write(files, in: folder)
                options.against = against
                return ChainPlanner(options: options).plan(inputAt: spec, configuration: nil).diagnostics
            }
            let planner = ChainPlanner(options: options)
            if let lockedFiles {
                try write(lockedFiles, in: folder)
                guard let lock = planner.lock(inputAt: spec, versions: nil).lock else {
                    throw RuleExample.HarnessFailure(description: "the example's locked folder has no readable bundle")
                }
                try Data(lock.text.utf8).write(to: folder.appendingPathComponent(ChainLock.fileName))
                try remove(lockedFiles, from: folder)
            }
            try write(files, in: folder)
            if writesModels {
                let outcome = planner.stagePlan(inputAt: spec, identities: { _ in nil })
                guard let plan = outcome.plan, let bundle = outcome.bundleURL else { return outcome.report.diagnostics }
                switch StageModelWriter.prepare((plan.decompositions ?? []).filter { !$0.intermediates.isEmpty }, bundle: bundle) {
                case .failure(let refusal): return plan.findings + refusal.findings
                case .success(let versions):
                    _ = try StageModelWriter.write(versions, bundle: bundle)
                    return plan.findings
                }
            }
            if plansStages {
                let outcome = planner.stagePlan(inputAt: spec, identities: { _ in nil }, computingIdentities: true)
                return outcome.plan?.findings ?? outcome.report.diagnostics
            }
            if let passes, store == nil {
                switch planner.passes(inputAt: spec, from: passes.from, to: passes.to, storeAt: nil, maxMemoryBytes: nil) {
                case .success(let report): return report.diagnostics
                case .failure(let failure): return failure.diagnostics
                }
            }
            guard let store else { return planner.plan(inputAt: spec, configuration: nil).diagnostics }
            let storeURL = folder.appendingPathComponent("store.sqlite")
            if let text = store.text {
                try Data(text.utf8).write(to: storeURL)
            } else if let version = store.version {
                guard let model = planner.bundle(inputAt: spec)?.version(named: version)?.model else {
                    throw RuleExample.HarnessFailure(description: "the example's bundle has no readable version '\(version)'")
                }
                _ = try StoreFixtureWriter(rowsPerEntity: store.rows).write(model: model, versionName: version, to: storeURL.path)
                if !store.sql.isEmpty {
                    let queue = try DatabaseQueue(path: storeURL.path)
                    try queue.write { db in for statement in store.sql { try db.execute(sql: statement) } }
                    try queue.close()
                }
            }
            if let passes {
                switch planner.passes(inputAt: spec, from: passes.from, to: passes.to, storeAt: storeURL.path, maxMemoryBytes: nil, lockTimeout: 0) {
                case .success(let report): return report.diagnostics
                case .failure(let failure): return failure.diagnostics
                }
            }
            var dryRun = DryRunOptions()
            dryRun.memoryLimitBytes = store.memoryLimitMB.map { $0 << 20 }
            dryRun.simulate = store.simulate
            dryRun.lockTimeout = 0
            return planner.dryRun(inputAt: spec, storeAt: storeURL.path, options: dryRun, configuration: nil).plan.diagnostics
        } catch let failure as RuleExample.HarnessFailure {
            throw failure
        } catch {
            throw RuleExample.HarnessFailure(description: "the example could not be written: \(error)")
        }
    }

    /// Removes `files` from `folder`: a deleted version leaves no empty folder behind.
    private func remove(_ files: [RuleExample.File], from folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.removeItem(at: url)
            let parent = url.deletingLastPathComponent()
            if parent.path != folder.path, (try? FileManager.default.contentsOfDirectory(atPath: parent.path))?.isEmpty == true {
                try FileManager.default.removeItem(at: parent)
            }
        }
    }

    private func write(_ files: [RuleExample.File], in folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
        }
    }
}

/// The git repository of a shipped-model example: made with the `git` executable, as a user's is.
enum ExampleRepository {
    /// `git init` in `folder`, then one commit of everything in it, tagged `tag`.
    static func commit(_ folder: URL, tag: String) throws(RuleExample.HarnessFailure) {
        let git = Git.onPath()
        let steps = [["init", "-q"], ["add", "-A"],
                     ["-c", "user.name=chainplan", "-c", "user.email=chainplan@example.invalid", "-c", "commit.gpgsign=false",
                      "commit", "-q", "-m", "shipped"],
                     ["-c", "tag.gpgsign=false", "tag", tag]]
        for arguments in steps {
            if case .failure(let failure) = git.run(arguments, in: folder) {
                throw RuleExample.HarnessFailure(description: "git \(arguments.joined(separator: " ")) failed: \(failure)")
            }
        }
    }
}

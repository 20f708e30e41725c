import ArgumentParser
import Foundation
import Testing
import Yams
@testable import ChainPlanCLI
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// The files that fit chainplan where teams work (issue 19, §4): the GitHub Action, the
/// pre-commit hook, the licence and the changelog. The commands they run must exist.
struct IntegrationFilesTests {
    static let root = CLITests.root

    func yaml(_ name: String) throws -> Any {
        let url = Self.root.appendingPathComponent(name)
        let text = try #require(try? String(contentsOf: url, encoding: .utf8), "\(name) is missing")
        return try #require(try Yams.load(yaml: text), "\(name) is empty")
    }

    /// Parses `arguments` as a chainplan command line; nil with the error when it is not one.
    func parse(_ arguments: [String]) -> (command: ParsableCommand?, error: String?) {
        do { return (try ChainPlan.parseAsRoot(arguments), nil) }
        catch { return (nil, ChainPlan.message(for: error)) }
    }

    /// Every `--option` written in `script` that follows a `chainplan` invocation or an args array.
    func longOptions(in script: String) -> Set<String> {
        Set(script.split(whereSeparator: { " \n\t()\"'=".contains($0) })
            .filter { $0.hasPrefix("--") && $0.count > 2 }
            .map(String.init))
    }

    @Test func actionRunsValidateWithGitHubAndSARIFAndUploadsIt() throws {
        let action = try #require(try yaml("action.yml") as? [String: Any])
        let inputs = try #require(action["inputs"] as? [String: Any])
        #expect(Set(inputs.keys).isSuperset(of: ["spec", "fail-on", "baseline", "against"]))
        let runs = try #require(action["runs"] as? [String: Any])
        #expect(runs["using"] as? String == "composite")
        let steps = try #require(runs["steps"] as? [[String: Any]])
        let scripts = steps.compactMap { $0["run"] as? String }
        let validate = try #require(scripts.first { $0.contains("\"$CHAINPLAN\" \"${args[@]}\"") }, "no step runs chainplan")
        #expect(validate.contains("args=(validate "))
        #expect(validate.contains("--format github"))
        #expect(validate.contains("--format sarif -o chainplan.sarif"))
        #expect(scripts.contains { $0.contains("swift build -c release --product chainplan") })
        let uploads = steps.compactMap { $0["uses"] as? String }
        #expect(uploads.contains { $0.hasPrefix("github/codeql-action/upload-sarif@") })
        let upload = try #require(steps.first { ($0["uses"] as? String)?.hasPrefix("github/codeql-action/upload-sarif@") == true })
        #expect((upload["with"] as? [String: Any])?["sarif_file"] as? String == "chainplan.sarif")

        // Every option the script names is one of validate's, and the command lines it can build parse.
        let help = ChainPlan.helpMessage(for: ValidateCommand.self, columns: 400)
        for option in longOptions(in: validate) {
            #expect(help.contains(option), "action.yml passes \(option), which validate does not take")
        }
        let base = ["validate", "chain.json", "--no-color"]
        for extra in [[], ["--strict"], ["--baseline", "baseline.json"], ["--strict", "--baseline", "baseline.json"], ["--against", "origin/main"]] {
            for output in [["--format", "github"], ["--format", "sarif", "-o", "chainplan.sarif"]] {
                let parsed = parse(base + extra + output)
                #expect(parsed.command is ValidateCommand, "\(base + extra + output): \(parsed.error ?? "")")
            }
        }
    }

    @Test func preCommitHookRunsValidate() throws {
        let hooks = try #require(try yaml(".pre-commit-hooks.yaml") as? [[String: Any]])
        let hook = try #require(hooks.first { $0["id"] as? String == "chainplan-validate" })
        let entry = try #require(hook["entry"] as? String).split(separator: " ").map(String.init)
        #expect(entry.first == "chainplan")
        #expect(hook["pass_filenames"] as? Bool == false)
        let arguments = Array(entry.dropFirst())
        #expect(parse(arguments + ["chain.json"]).command is ValidateCommand, "\(parse(arguments).error ?? "")")
        #expect(parse(arguments + ["chain.json", "--strict"]).command is ValidateCommand)
    }

    /// `chainplan --version` is the changelog's latest release, which is tagged `v<version>`.
    @Test func versionMatchesTheChangelogsLatestRelease() throws {
        let changelog = try #require(try? String(contentsOf: Self.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8))
        #expect(changelog.contains("## [Unreleased]"))
        let release = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        let version = try #require(release?.dropFirst(4).split(separator: "]").first.map(String.init))
        #expect(version == ChainPlanVersion.string)
        #expect(ChainPlan.configuration.version == ChainPlanVersion.string)
        #expect(changelog.contains("[\(version)]: ") && changelog.contains("/tag/v\(version)"))
    }

    @Test func licenceIsApache2() throws {
        let licence = try #require(try? String(contentsOf: Self.root.appendingPathComponent("LICENSE"), encoding: .utf8))
        #expect(licence.contains("Apache License"))
        #expect(licence.contains("Version 2.0, January 2004"))
        #expect(licence.contains("END OF TERMS AND CONDITIONS"))
    }
}

/// `action.yml` and the GitHub Actions workflows the documentation shows pass zizmor (PyPI;
/// `make test` installs it under .build/lint) and actionlint when it is installed: pinned
/// actions, no template injection, no credentials left in the checkout.
struct WorkflowLintTests {
    /// The executable `name` in .build/lint/bin or on PATH.
    static func tool(_ name: String) -> URL? {
        let venv = CLITests.root.appendingPathComponent(".build/lint/bin/\(name)")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        return path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Each ```yaml block of the README and Docs/ci.md that is a whole workflow (has `jobs:`).
    static func documentedWorkflows() throws -> [(name: String, text: String)] {
        var found: [(String, String)] = []
        for page in ["README.md", "Docs/ci.md"] {
            let text = try String(contentsOf: CLITests.root.appendingPathComponent(page), encoding: .utf8)
            for (index, block) in text.components(separatedBy: "```yaml\n").dropFirst().enumerated() {
                let body = block.components(separatedBy: "```").first ?? ""
                if body.contains("\njobs:") { found.append(("\(page.replacingOccurrences(of: "/", with: "-"))-\(index).yml", body)) }
            }
        }
        return found
    }

    /// Runs `tool` with `arguments` in `folder`; its exit status and output.
    static func run(_ tool: URL, _ arguments: [String], in folder: URL) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// A folder holding action.yml and the documented workflows under .github/workflows.
    static func lintFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-lint-\(UUID().uuidString)")
        let workflows = folder.appendingPathComponent(".github/workflows")
        try FileManager.default.createDirectory(at: workflows, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLITests.root.appendingPathComponent("action.yml"), to: folder.appendingPathComponent("action.yml"))
        for workflow in try documentedWorkflows() {
            try Data(workflow.text.utf8).write(to: workflows.appendingPathComponent(workflow.name))
        }
        return folder
    }

    @Test func theDocumentedWorkflowsAreFound() throws {
        #expect(try Self.documentedWorkflows().count >= 2)
    }

    @Test(.enabled(if: tool("zizmor") != nil, "zizmor is not installed (make test installs it from PyPI)"))
    func zizmorFindsNothing() throws {
        let folder = try Self.lintFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zizmor = try #require(Self.tool("zizmor"))
        let (status, output) = try Self.run(zizmor, ["--offline", "--no-progress", "action.yml", ".github/workflows"], in: folder)
        #expect(status == 0, "\(output)")
    }

    @Test(.enabled(if: tool("actionlint") != nil, "actionlint is not installed"))
    func actionlintFindsNothing() throws {
        let folder = try Self.lintFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let actionlint = try #require(Self.tool("actionlint"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".github/workflows").path)
            .map { ".github/workflows/\($0)" }
        let (status, output) = try Self.run(actionlint, ["-no-color"] + files, in: folder)
        #expect(status == 0, "\(output)")
    }
}

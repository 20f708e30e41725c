import ArgumentParser
import Foundation
import Testing
@testable import ChainPlanCLI
@testable import ChainPlanKit

/// One memory budget for the commands that size heavyweight steps: `dry-run` (CP303 above it) and
/// `passes` (packed under it) take the same option, `--memory-limit`, with `passes`' first
/// spelling `--max-memory-mb` kept working but hidden.
struct MemoryBudgetOptionsTests {
    struct ParseCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// The budget in bytes; nil: none given. `refused`: a usage error.
        var bytes: Int?
        var refused = false
        var testDescription: String { arguments.isEmpty ? "no option" : arguments.joined(separator: " ") }
    }

    static let parseCases = [
        ParseCase(arguments: [], bytes: nil),
        ParseCase(arguments: ["--memory-limit", "200"], bytes: 200 << 20),
        ParseCase(arguments: ["--max-memory-mb", "200"], bytes: 200 << 20),
        ParseCase(arguments: ["--memory-limit", "1048576"], bytes: 1 << 40),
        ParseCase(arguments: ["--memory-limit", "0"], refused: true),
        ParseCase(arguments: ["--max-memory-mb", "-5"], refused: true),
        ParseCase(arguments: ["--memory-limit", "1048577"], refused: true),
        ParseCase(arguments: ["--memory-limit", "10", "--max-memory-mb", "10"], refused: true),
    ]

    @Test(arguments: parseCases)
    func parses(_ c: ParseCase) throws {
        do {
            let options = try MemoryBudgetOptions.parse(c.arguments)
            #expect(!c.refused, "accepted")
            #expect(options.bytes == c.bytes)
        } catch {
            #expect(c.refused, "\(MemoryBudgetOptions.message(for: error))")
        }
    }

    /// Both commands take both spellings; help shows only `--memory-limit`.
    @Test(arguments: ["dry-run", "passes"])
    func bothCommandsShareTheOption(_ name: String) throws {
        let command = try #require(ChainPlan.configuration.subcommands.first { $0.configuration.commandName == name })
        let help = ChainPlan.helpMessage(for: command, columns: 400)
        #expect(help.contains("--memory-limit <MB>"))
        #expect(!help.contains("--max-memory-mb"))
    }

    /// Through `passes`: either spelling sets the budget the report records; a bad value is usage (2).
    @Test(arguments: ["--memory-limit", "--max-memory-mb"])
    func passesRecordsTheBudget(_ spelling: String) async throws {
        let (status, json, _) = try await PassesCommandTests.run(["passes", PassesCommandTests.school.path, "School", "School 2",
                                                                  spelling, "7", "--format", "json"])
        #expect(status == 0)
        #expect(json.contains("\"maxMemoryBytes\" : \(7 << 20)"))
        let (refused, _, files) = try await PassesCommandTests.run(["passes", PassesCommandTests.school.path, "School", "School 2", spelling, "0"])
        #expect(refused == 2 && files.isEmpty)
    }

    /// `passes` reads its spec like every other command: `--max-spec-bytes` refuses a larger one (CP100, exit 2).
    @Test func passesTakesTheSpecLimits() async throws {
        let captured = await OutputCapture.run(["passes", PassesCommandTests.school.path, "School", "School 2", "--max-spec-bytes", "4"])
        #expect(captured.status == 2)
        #expect(captured.error.contains("CP100"), "\(captured.error)")
    }
}

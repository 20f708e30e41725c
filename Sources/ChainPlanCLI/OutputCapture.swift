import ChainPlanCore
import Foundation

/// Standard output and error of in-process runs, for tests: inside `OutputCapture.$current.withValue`,
/// everything chainplan writes to either stream is kept here instead (ArgumentParser's help,
/// printed with `print`, is not).
final class OutputCapture: Sendable {
    @TaskLocal static var current: OutputCapture?

    private let streams = Locked((out: Data(), err: Data()))

    init() {}

    func append(_ data: Data, error: Bool) {
        streams.withLock { if error { $0.err.append(data) } else { $0.out.append(data) } }
    }

    var standardOutput: String { streams.withLock { String(decoding: $0.out, as: UTF8.self) } }
    var standardError: String { streams.withLock { String(decoding: $0.err, as: UTF8.self) } }

    /// Runs `arguments` in-process and returns its exit status with what it printed; with
    /// `environment`, chainplan sees exactly those variables instead of the process's.
    static func run(_ arguments: [String], environment: [String: String]? = nil) async -> (status: Int32, output: String, error: String) {
        let capture = OutputCapture()
        let status = await OutputCapture.$current.withValue(capture) {
            await CLIEnvironment.$overrides.withValue(environment ?? CLIEnvironment.overrides) { await ChainPlan.run(arguments: arguments) }
        }
        return (status, capture.standardOutput, capture.standardError)
    }
}

import Foundation

/// Standard output and error of in-process runs, for tests: inside `OutputCapture.$current.withValue`,
/// everything chainplan writes to either stream is kept here instead (ArgumentParser's help,
/// printed with `print`, is not).
final class OutputCapture: @unchecked Sendable {
    @TaskLocal static var current: OutputCapture?

    private let lock = NSLock()
    private var out = Data()
    private var err = Data()

    init() {}

    func append(_ data: Data, error: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if error { err.append(data) } else { out.append(data) }
    }

    var standardOutput: String { lock.lock(); defer { lock.unlock() }; return String(decoding: out, as: UTF8.self) }
    var standardError: String { lock.lock(); defer { lock.unlock() }; return String(decoding: err, as: UTF8.self) }

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

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `chainplan` as a child process, the way CI does, and reports how it ended and
/// its peak memory (from `wait4`). A child still running at the time limit is killed and reported
/// as hung: a guard, not a measurement.
struct ChildProcess {
    static let binary = CLITests.root.appendingPathComponent(".build/debug/chainplan")

    struct Outcome: CustomStringConvertible {
        /// The exit status, or nil when a signal ended the process.
        var status: Int32?
        var signal: Int32?
        var hung: Bool
        var peakKilobytes: Int

        var description: String {
            hung ? "hung (killed)" : signal.map { "killed by signal \($0)" } ?? "exit \(status ?? -1), peak \(peakKilobytes / 1024) MB"
        }
    }

    static func run(_ arguments: [String], limit seconds: Double = 5) throws -> Outcome {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { _, new in new }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }

        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO) }

        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        var usage = rusage()
        while true {
            let done = wait4(pid, &status, WNOHANG, &usage)
            if done == pid { break }
            if Date() > deadline {
                kill(pid, SIGKILL)
                _ = wait4(pid, &status, 0, &usage)
                return Outcome(status: nil, signal: SIGKILL, hung: true, peakKilobytes: usage.ru_maxrss)
            }
            usleep(5_000)
        }
        let signalled = (status & 0x7f) != 0
        return Outcome(status: signalled ? nil : (status >> 8) & 0xff, signal: signalled ? status & 0x7f : nil,
                       hung: false, peakKilobytes: usage.ru_maxrss)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `chainplan` as a child process, the way CI does, and reports how it ended and
/// its peak memory. A child that spends more than the limit in CPU time on every core (user +
/// system, so the guard does not depend on how loaded the machine is), or that is still running after a wall-clock
/// backstop of twelve times the limit (a child blocked without spinning, on a FIFO say), is killed
/// and reported as hung: a guard, not a measurement.
///
/// The child is started by a small Python launcher rather than by this (large) test process:
/// Linux carries a process's peak RSS across `exec`, so a child spawned directly from here would
/// report this process's peak as its own.
struct ChildProcess {
    static let binary = CLITests.root.appendingPathComponent(".build/debug/chainplan")

    struct Outcome: CustomStringConvertible, Decodable {
        /// The exit status, or nil when a signal ended the process.
        var status: Int32?
        var signal: Int32?
        var hung: Bool
        var peakKilobytes: Int

        var description: String {
            hung ? "hung (killed)" : signal.map { "killed by signal \($0)" } ?? "exit \(status ?? -1), peak \(peakKilobytes / 1024) MB"
        }
    }

    static let launcher = """
        import json, math, os, resource, signal, subprocess, sys, time
        limit = float(sys.argv[1])
        cpu = math.ceil(limit * (os.cpu_count() or 1))
        def cap():
            resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        child = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, preexec_fn=cap)
        deadline = time.monotonic() + 12 * limit
        hung = False
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid == child.pid:
                break
            if time.monotonic() > deadline:
                hung = True
                child.kill()
                pid, status, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.005)
        signalled = os.WIFSIGNALED(status)
        if signalled and (os.WTERMSIG(status) == signal.SIGXCPU
                          or (os.WTERMSIG(status) == signal.SIGKILL and usage.ru_utime + usage.ru_stime >= cpu)):
            hung = True
        print(json.dumps({"status": None if signalled else os.WEXITSTATUS(status),
                          "signal": os.WTERMSIG(status) if signalled else None,
                          "hung": hung, "peakKilobytes": usage.ru_maxrss}))
        """

    static func run(_ arguments: [String], limit seconds: Double = 5) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", launcher, String(seconds), binary.path] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["NO_COLOR": "1"]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Outcome.self, from: data)
    }
}

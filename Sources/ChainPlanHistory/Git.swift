import ChainPlanCore
import Foundation

/// The `git` executable, run with an argument vector (never through a shell). chainplan runs
/// only commands that read a repository (the rule examples' harness alone makes one).
///
/// Each run is bounded: standard output past `maxOutput` bytes, or a run longer than `timeout`,
/// stops the process and fails. Git's prompts and optional locks are off (`GIT_TERMINAL_PROMPT=0`,
/// `GIT_OPTIONAL_LOCKS=0`), pathspecs are literal and messages are in the C locale.
package struct Git: Sendable {
    /// The executable, or nil when none was found (every run then fails with `.notInstalled`).
    package var executable: URL?
    package var timeout: TimeInterval = 300

    package init(executable: URL?) {
        self.executable = executable
    }

    /// The first executable `git` on `PATH` (of `environment`).
    package static func onPath(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Git {
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let found = directories.lazy
            .filter { $0.hasPrefix("/") }
            .map { URL(fileURLWithPath: $0).appendingPathComponent("git") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return Git(executable: found)
    }

    /// Why a run produced no output.
    package enum Failure: Error, Sendable, Equatable {
        case notInstalled
        /// Git ran and exited with `status`; `message` is the first line it wrote to standard error.
        case failed(status: Int32, message: String)
        case outputTooLarge(limit: Int)
        case timedOut(seconds: Int)
        case cannotLaunch(String)
    }

    /// Runs `git <arguments>` in `directory`, feeding `input` to its standard input, and returns
    /// its standard output.
    /// `literalPathspecs: false` lets a pathspec carry git's magic (`:(glob)`); only for
    /// pathspecs chainplan writes itself, never for one that comes from the input.
    package func run(_ arguments: [String], in directory: URL, input: Data = Data(), maxOutput: Int = 1 << 20,
                     literalPathspecs: Bool = true) -> Result<Data, Failure> {
        guard let executable else { return .failure(.notInstalled) }
        let process = Process()
        process.executableURL = executable
        process.arguments = ["--no-pager"] + (literalPathspecs ? ["--literal-pathspecs"] : []) + arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_TERMINAL_PROMPT"] = "0"
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        environment["LC_ALL"] = "C"
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        // Standard input is a private file, not a pipe: git may exit before reading it all,
        // and a pipe's writer would then be killed by SIGPIPE.
        var inputFile: URL?
        defer { if let inputFile { try? FileManager.default.removeItem(at: inputFile) } }
        if input.isEmpty {
            process.standardInput = FileHandle.nullDevice
        } else {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-git-\(UUID().uuidString)")
            do {
                try input.write(to: url, options: .withoutOverwriting)
                inputFile = url
                process.standardInput = try FileHandle(forReadingFrom: url)
            } catch {
                return .failure(.cannotLaunch("cannot write git's input: \(error)"))
            }
        }
        do {
            try process.run()
        } catch {
            return .failure(.cannotLaunch("\(error)"))
        }
        // Standard error is read on its own thread, so that its pipe filling up cannot stall
        // git while standard output is read here.
        let reading = DispatchGroup()
        let message = Locked(Data())
        let errorOutput = errors.fileHandleForReading
        DispatchQueue.global().async(group: reading) {
            while true {
                let chunk = errorOutput.availableData
                if chunk.isEmpty { break }
                message.withLock { if $0.count < 4096 { $0.append(chunk.prefix(4096 - $0.count)) } }
            }
        }
        let timedOut = Locked(false)
        let watchdog = DispatchWorkItem {
            timedOut.withLock { $0 = true }
            process.terminate()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        var data = Data()
        var tooLarge = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            if data.count + chunk.count > maxOutput {
                tooLarge = true
                process.terminate()
                break
            }
            data.append(chunk)
        }
        try? output.fileHandleForReading.close()
        process.waitUntilExit()
        watchdog.cancel()
        reading.wait()
        if tooLarge { return .failure(.outputTooLarge(limit: maxOutput)) }
        if timedOut.withLock({ $0 }) { return .failure(.timedOut(seconds: Int(timeout))) }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let text = String(decoding: message.withLock { $0 }, as: UTF8.self)
            let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return .failure(.failed(status: process.terminationStatus, message: Self.printable(first)))
        }
        return .success(data)
    }

    /// `text` with control characters shown as `?`, at most 300 characters: git echoes
    /// revisions and paths, which come from the input.
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(300).map { $0.properties.generalCategory == .control ? "?" : $0 }))
    }
}

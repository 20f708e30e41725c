import ChainPlanCore
import ChainPlanKit
import ChainPlanStore
import Foundation

/// `[#########...........] step 2 of 3, 45%` on stderr, redrawn at most ten times a second,
/// only on a terminal and only once the work has run for a second (quick runs stay silent).
final class ProgressBar: Sendable {
    private let enabled: Bool
    private let start = Date()
    /// When the bar was last drawn, and whether it is on the screen.
    private let screen = Locked((lastDraw: Date.distantPast, drawn: false))

    /// Captured output (`OutputCapture`) is never a terminal.
    init(enabled: Bool = OutputCapture.current == nil && isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
    }

    /// Step `step` (from 1) of `steps` is `fraction` done.
    func update(step: Int, of steps: Int, fraction: Double) {
        draw(Self.line(step: step, of: steps, fraction: fraction))
    }

    /// A dry-run phase (copy, read, simulation step) is `fraction` done.
    func update(phase: DryRunPhase, fraction: Double) {
        draw(Self.line(phase: phase, fraction: fraction))
    }

    private func draw(_ line: @autoclosure () -> String) {
        guard enabled else { return }
        screen.withLock { screen in
            let now = Date()
            guard now.timeIntervalSince(start) >= 1, now.timeIntervalSince(screen.lastDraw) >= 0.1 else { return }
            screen = (now, true)
            FileHandleOutput.standardError.write("\r\u{1B}[K" + line())
        }
    }

    /// Clears the bar if it was drawn.
    func finish() {
        screen.withLock { screen in
            if screen.drawn { FileHandleOutput.standardError.write("\r\u{1B}[K") }
            screen.drawn = false
        }
    }

    /// `[#####...............] copying the store, 25%`, `… reading the copy, 60%`, or a step's line.
    static func line(phase: DryRunPhase, fraction: Double, width: Int = 20) -> String {
        switch phase {
        case .copy: bar(min(max(fraction, 0), 1), "copying the store", width: width)
        case .read: bar(min(max(fraction, 0), 1), "reading the copy", width: width)
        case .simulate(let step, let steps): line(step: step, of: steps, fraction: fraction, width: width)
        }
    }

    /// `[#########...........] step 2 of 3, 45%`: the whole run's share done, step `step` being `fraction` done.
    static func line(step: Int, of steps: Int, fraction: Double, width: Int = 20) -> String {
        let total = steps > 0 ? (Double(step - 1) + min(max(fraction, 0), 1)) / Double(steps) : 1
        return bar(total, "step \(step) of \(steps)", width: width)
    }

    /// The one bar renderer: `width` cells, `#` for the share `done` (0…1), then the label and percent.
    private static func bar(_ done: Double, _ label: String, width: Int) -> String {
        let filled = Int((done * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(label), \(Int((done * 100).rounded(.down)))%"
    }
}

/// Removes the dry run's scratch copies on Ctrl-C, SIGTERM, SIGHUP or SIGQUIT, then exits 128 + the
/// signal number (130, 143, 129, 131).
///
/// A process-wide `sigaction` handler (so whichever thread the signal lands on, it is caught)
/// that only writes the signal number to a pipe, which is async-signal-safe; a dedicated thread
/// reads the pipe, removes the copies and exits. (A `DispatchSourceSignal` needs the signal
/// blocked in every thread, which a process that already runs threads cannot arrange.)
///
/// The cleanup races the dry run it interrupts: once the copy is gone, the run fails and would
/// exit 2 on its own. The cleanup holds `exiting` from the moment it starts, and the process's
/// own exit asks `exitStatus(_:)` first, which waits for it: an interrupted run always exits
/// 128 + the signal.
enum ScratchCleanup {
    nonisolated(unsafe) fileprivate static var writeEnd: Int32 = -1
    private static let lock = NSLock()
    /// Taken by the cleanup for good (it ends in `exit`); guards `caught`.
    private static let exiting = NSLock()
    nonisolated(unsafe) private static var caught: Int32 = 0

    /// The status the process exits with: `status`, unless a signal was caught, whose cleanup
    /// is waited for (it exits the process itself).
    static func exitStatus(_ status: Int32) -> Int32 {
        exiting.lock()
        defer { exiting.unlock() }
        return caught == 0 ? status : 128 + caught
    }

    static func install() {
        lock.lock()
        defer { lock.unlock() }
        guard writeEnd < 0 else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        writeEnd = ends[1]
        let readEnd = ends[0]
        let reader = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) != 1 {}
            exiting.lock()
            caught = Int32(byte)
            StoreScratchCopy.removeAllLive()
            FileHandleOutput.standardError.write("\r\u{1B}[Kchainplan: interrupted; the scratch copy was removed and the store was not touched\n")
            exit(128 + caught)
        }
        reader.start()
        // SIGHUP: the terminal was closed; SIGQUIT: Ctrl-\. Both would otherwise end the process
        // with the copy of the user's data left in the temporary directory.
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGQUIT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = scratchCleanupSignalHandler
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signalNumber, &action, nil)
        }
    }
}

/// The signal handler: async-signal-safe (one `write`), no captures.
private func scratchCleanupSignalHandler(_ signalNumber: Int32) {
    var byte = UInt8(truncatingIfNeeded: signalNumber)
    _ = write(ScratchCleanup.writeEnd, &byte, 1)
}

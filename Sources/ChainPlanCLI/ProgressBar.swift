import Foundation
import ChainPlanKit

/// `[#########...........] step 2 of 3, 45%` on stderr, redrawn at most ten times a second,
/// only on a terminal and only once the work has run for a second (quick runs stay silent).
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private let enabled: Bool
    private let start = Date()
    private var lastDraw = Date.distantPast
    private var drawn = false

    init(enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.enabled = enabled
    }

    /// Step `step` (from 1) of `steps` is `fraction` done.
    func update(step: Int, of steps: Int, fraction: Double) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard now.timeIntervalSince(start) >= 1, now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        drawn = true
        FileHandleOutput.standardError.write("\r\u{1B}[K" + Self.line(step: step, of: steps, fraction: fraction))
    }

    /// Clears the bar if it was drawn.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if drawn { FileHandleOutput.standardError.write("\r\u{1B}[K") }
        drawn = false
    }

    static func line(step: Int, of steps: Int, fraction: Double, width: Int = 20) -> String {
        let total = steps > 0 ? (Double(step - 1) + min(max(fraction, 0), 1)) / Double(steps) : 1
        let filled = Int((total * Double(width)).rounded(.down))
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "step \(step) of \(steps), \(Int((total * 100).rounded(.down)))%"
    }
}

/// Removes the dry run's scratch copies on Ctrl-C or SIGTERM, then exits 130 (143).
enum ScratchCleanup {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    private static let installed = NSLock()

    static func install() {
        installed.lock()
        defer { installed.unlock() }
        guard sources.isEmpty else { return }
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                StoreScratchCopy.removeAllLive()
                FileHandleOutput.standardError.write("\r\u{1B}[Kchainplan: interrupted; the scratch copy was removed and the store was not touched\n")
                exit(128 + signalNumber)
            }
            source.resume()
            sources.append(source)
        }
    }
}

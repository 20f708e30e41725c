import ArgumentParser
import ChainPlanKit

extension ChainPlan {
    /// Settings for the `chainplan` process, which exits once its command has written its output
    /// (`main` applies them): a rendered graph is left for the exit to reclaim rather than freed,
    /// as `dot` leaves its last graph. Anything running commands in-process (tests) keeps the
    /// defaults, which free every graph.
    public static func applyExitingProcessSettings() {
        GraphvizRenderer.freesGraphs = false
    }

    /// Starts, on a thread of its own, what running `arguments` will most likely need: Graphviz's
    /// fonts and plugins for `graph`. A guess from the words alone; ``run(arguments:)`` makes the
    /// same one and waits for it, so calling this first (as `main` does, before the async runtime
    /// starts its first thread) only starts it sooner.
    @discardableResult
    public static func prepare(arguments: [String]) -> GraphvizRenderer.Preparation {
        GraphvizRenderer.prepare(GraphCommand.likelyFormat(arguments))
    }

    /// Parses and runs `arguments` in-process and returns the exit status.
    /// Tests call this directly.
    public static func run(arguments: [String]) async -> Int32 {
        // `graph` lays out with Graphviz, which loads its plugins on its own thread while the
        // arguments are parsed and the chain is planned; waited on before the command returns.
        let preparation = prepare(arguments: arguments)
        defer { preparation.wait() }
        do {
            try SubcommandHint.check(arguments)
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return 0
        } catch let error as UsageError {
            FileHandleOutput.standardError.write(error.rendered)
            return 2
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    FileHandleOutput.standardError.write(message + "\n")
                }
            }
            if code == .validationFailure { return 2 }
            return code.rawValue
        }
    }
}

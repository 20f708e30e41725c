import ArgumentParser
import ChainPlanKit

extension ChainPlan {
    /// Parses and runs `arguments` in-process and returns the exit status.
    /// Tests call this directly.
    public static func run(arguments: [String]) async -> Int32 {
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

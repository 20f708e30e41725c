import ArgumentParser
import Foundation

extension ChainPlan {
    /// Runs the command line like `main()`, but maps ArgumentParser's usage error (64)
    /// to 2 so that 2 always means "unusable input or usage". The only `exit` in chainplan.
    public static func mainWithRemappedExitCodes() async {
        let code = await run(arguments: Array(CommandLine.arguments.dropFirst()))
        // A dry run interrupted by a signal exits 128 + the signal, even when the run, its
        // scratch copy removed under it, fails first.
        Foundation.exit(ScratchCleanup.exitStatus(code))
    }
}

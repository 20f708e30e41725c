import ChainPlanKit
import ChainPlanReaders

/// A mistyped subcommand gets the same help as a mistyped version: `chainplan valdate` and
/// `chainplan Validate` name `validate` (usage error, exit 2) instead of ArgumentParser's
/// "Unexpected argument".
enum SubcommandHint {
    static var names: [String] { ChainPlan.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"] }

    static func check(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first) else { return }
        let hint = NameSuggestions.nearest(to: first, among: names)
        throw UsageError("unknown command '\(first)'" + (hint.isEmpty ? "; 'chainplan --help' lists them" : "; did you mean \(NameSuggestions.phrase(hint))?"))
    }
}

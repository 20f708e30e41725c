import ChainPlanCore
import Yams

/// `accept`: findings acknowledged on steps the lock protects, each with a reason.
///
///     accept:
///       "Model 3 -> Model 4": "the column was never read"          # every finding on the step
///       "Model 7 -> Model 8":
///         reason: "ships this way since 2.1; users were told"
///         codes: [CP209, CP202]                                   # only these codes
///
/// A malformed entry is a CP100 at its line and column, like every other spec key.
extension SpecInterpreter {
    mutating func interpretAccept(_ node: Node, into spec: inout ChainSpec) {
        guard let mapping = optionalMapping(node, else: "accept must be an object of \"From -> To\": \"reason\" (or {reason, codes})") else { return }
        var seen: [StepKey: SourceLocation] = [:]
        for (key, value) in mapping {
            guard spend() else { return }
            guard let stepText = name(key, what: "accepted step"), let step = step(stepText, at: key, what: "accepted step", seen: &seen),
                  let (reason, codes) = acceptance(value) else { continue }
            spec.acceptances.append(ChainSpec.Acceptance(step: step, codes: codes, reason: reason, location: stepText.location))
        }
    }

    /// The reason and codes of one entry: a string (the reason), or `{reason, codes}`.
    private mutating func acceptance(_ node: Node) -> (String, [DiagnosticCode])? {
        if case .scalar = node {
            guard let reason = name(node, what: "reason for accepting the step's findings") else { return nil }
            return (reason.value, [])
        }
        guard case .mapping(let mapping) = node else {
            report("an accepted step takes a reason (a string) or {reason, codes}", at: node)
            return nil
        }
        var reason: String?
        var codes: [DiagnosticCode] = []
        var ok = true
        for (key, value) in mapping {
            guard spend() else { return nil }
            switch key.scalar?.string {
            case "reason":
                reason = name(value, what: "reason")?.value
                ok = ok && reason != nil
            case "codes":
                let elements: [Node] = if case .sequence(let sequence) = value { Array(sequence) } else { [value] }
                for element in elements {
                    guard spend() else { return nil }
                    guard let text = name(element, what: "code") else { ok = false; continue }
                    guard let code = knownCodes.code(text.value) else {
                        report("'\(text.value)' is not a chainplan code (CPnnn; `chainplan rules` lists them)", at: element)
                        ok = false
                        continue
                    }
                    codes.append(code)
                }
            default:
                report("unknown key '\(key.scalar?.string ?? "?")' in an accepted step; it has reason and codes", at: key)
                ok = false
            }
        }
        guard let reason else {
            if ok { report("an accepted step needs a reason", at: node) }
            return nil
        }
        return ok ? (reason, codes) : nil
    }
}

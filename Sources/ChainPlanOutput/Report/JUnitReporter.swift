import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// JUnit XML, the test-report format every CI shows (GitLab, Jenkins, Azure, CircleCI, Buildkite).
///
/// One test case per step (`steps`: `A → B`), one per start version (`paths`: `A → target`) and one
/// for the spec itself (`spec`: findings tied to neither, such as a malformed spec or model). A
/// finding at or above the failing severity fails the case it belongs to; findings below it are
/// listed in the case's `system-out`. A start that cannot reach the target always fails.
package enum JUnitReporter {
    package static func render(_ report: ChainReport, failing: Severity = .error) -> Data {
        let cases = testCases(report, failing: failing)
        let failures = cases.filter { !$0.failures(failing).isEmpty || $0.problem != nil }.count
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"chainplan\" tests=\"\(cases.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        out += "  <testsuite name=\"\(MarkupText.xml("chainplan validate \(report.spec)"))\" tests=\"\(cases.count)\" "
            + "failures=\"\(failures)\" errors=\"0\" skipped=\"0\">\n"
        for testCase in cases {
            out += "    <testcase classname=\"chainplan.\(testCase.group)\" name=\"\(MarkupText.xml(testCase.name))\""
            let failed = testCase.failures(failing)
            let quiet = testCase.findings.filter { $0.severity < failing || $0.accepted != nil }
            if failed.isEmpty, testCase.problem == nil, quiet.isEmpty {
                out += "/>\n"
                continue
            }
            out += ">\n"
            // One <failure> per case (stricter consumers accept no more): the first reason in its
            // attributes, every reason in its text.
            let reasons = (testCase.problem.map { [(type: $0.type, message: $0.message, line: $0.message)] } ?? [])
                + failed.map { (type: $0.code.rawValue, message: $0.message, line: line($0)) }
            if let first = reasons.first {
                out += "      <failure type=\"\(MarkupText.xml(first.type))\" message=\"\(MarkupText.xml(first.message))\">"
                out += MarkupText.xml(reasons.map(\.line).joined(separator: "\n"))
                out += "</failure>\n"
            }
            if !quiet.isEmpty {
                out += "      <system-out>\(MarkupText.xml(quiet.map(line).joined(separator: "\n")))</system-out>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return Data(out.utf8)
    }

    struct TestCase {
        var group: String
        var name: String
        var findings: [Diagnostic] = []
        /// Why a start version cannot reach the target (`unreachable`), or which failing step its path takes (`step-fails`).
        var problem: (type: String, message: String)?

        func failures(_ failing: Severity) -> [Diagnostic] { findings.filter { $0.severity >= failing && $0.accepted == nil } }
    }

    /// The cases in document order (steps, then paths, then the spec), each with its findings. A
    /// path also fails when a step on it fails: a store at that start cannot be migrated.
    static func testCases(_ report: ChainReport, failing: Severity) -> [TestCase] {
        var steps = report.steps.map { TestCase(group: "steps", name: "\($0.from) → \($0.to)") }
        let stepIndex = Dictionary(report.steps.enumerated().map { ([$1.from, $1.to], $0) }, uniquingKeysWith: { first, _ in first })
        var paths = report.paths.map { path -> TestCase in
            let name = path.length == 0 ? "\(path.start) (the target)" : "\(path.start) → \(path.target ?? "(no target)")"
            var testCase = TestCase(group: "paths", name: name)
            if !path.reachable {
                let reason = switch path.problem {
                case "dead-end": "stops at '\(path.stopsAt ?? "?")'"
                case "cycle": "enters a cycle through '\(path.stopsAt ?? "?")'"
                case "not-in-chain": "is not in the chain"
                default: "there is no single target"
                }
                testCase.problem = ("unreachable", "'\(path.start)' cannot reach the target: \(reason)")
            }
            return testCase
        }
        let pathIndex = Dictionary(report.paths.enumerated().map { ($1.start, $0) }, uniquingKeysWith: { first, _ in first })
        var spec = TestCase(group: "spec", name: report.spec)
        for diagnostic in report.diagnostics {
            if [.versionMissingFromChain, .unreachableTarget, .directJumpFails].contains(diagnostic.code), let start = diagnostic.versions.first,
               let index = pathIndex[start] {
                paths[index].findings.append(diagnostic)
            } else if let index = stepIndex[diagnostic.versions] {
                steps[index].findings.append(diagnostic)
            } else {
                spec.findings.append(diagnostic)
            }
        }
        // Steps that fail, then each reachable path's first failing step, following `next` (paths of
        // very large chains do not list their steps).
        let next = Dictionary(report.paths.map { ($0.start, $0.next) }, uniquingKeysWith: { first, _ in first })
        for (index, path) in report.paths.enumerated() where path.reachable && path.problem == nil {
            var version = path.start
            for _ in 0..<(path.length ?? 0) {
                guard let following = next[version] ?? nil else { break }
                if let stepIndex = stepIndex[[version, following]], !steps[stepIndex].failures(failing).isEmpty {
                    paths[index].problem = ("step-fails", "the path from '\(path.start)' takes the failing step \(steps[stepIndex].name)")
                    break
                }
                version = following
            }
        }
        return steps + paths + [spec]
    }

    static func line(_ diagnostic: Diagnostic) -> String {
        let place = diagnostic.location.map { "\($0.description): " } ?? ""
        return "\(place)\(diagnostic.severity.rawValue): \(diagnostic.message) [\(diagnostic.code.rawValue)]"
            + (diagnostic.accepted.map { " (accepted: \($0))" } ?? "")
    }
}

import ChainPlanPlanning
/// What concerns one start version's path (issue 19 §2, scoping): `paths --from V` and
/// `graph --from V` report only findings about the versions V's path visits.
///
/// A finding is kept when it names no version (the spec or the bundle as a whole, which every
/// path depends on) or when every version it names is on the path: `Model 9 → Model 10` is not
/// on the path of `Model 100`, the target, so its errors do not fail `paths --from "Model 100"`.
///
///     chain Model → Model 2 → Model 3, error on Model → Model 2
///     paths --from "Model 2"   → the error is not reported, exit 0
///     paths --from "Model"     → reported, exit 1
package enum PathScope {
    /// The versions the path from `start` visits, in order: `start`, then each next version until
    /// the target, a dead end or a repeat (a cycle).
    package static func versions(from start: String, in report: ChainReport) -> [String] {
        var next: [String: String] = [:]
        for step in report.steps where next[step.from] == nil { next[step.from] = step.to }
        var visited: [String] = [start]
        var seen: Set<String> = [start]
        var current = start
        while let following = next[current], seen.insert(following).inserted {
            visited.append(following)
            current = following
        }
        return visited
    }

    /// `report` with only the findings about the path from `start`, its summary recounted, and
    /// how many findings were left out.
    package static func scoped(_ report: ChainReport, toPathFrom start: String) -> (report: ChainReport, leftOut: Int) {
        let onPath = Set(versions(from: start, in: report))
        let kept = report.diagnostics.filter { $0.versions.allSatisfy(onPath.contains) }
        guard kept.count != report.diagnostics.count else { return (report, 0) }
        var scoped = report
        scoped.diagnostics = kept
        scoped.summary = ChainReport.Summary(diagnostics: kept)
        return (scoped, report.diagnostics.count - kept.count)
    }
}

extension PathScope {
    /// `report` cut down to the path from `start` (its versions, its steps, its start's path and
    /// the findings about it), for drawing only that path.
    package static func restricted(_ report: ChainReport, toPathFrom start: String) -> ChainReport {
        let onPath = versions(from: start, in: report)
        let members = Set(onPath)
        var next: [String: String] = [:]
        for (index, version) in onPath.enumerated() where index + 1 < onPath.count { next[version] = onPath[index + 1] }
        var cut = scoped(report, toPathFrom: start).report
        cut.versions = report.versions.filter(members.contains)
        cut.steps = report.steps.filter { next[$0.from] == $0.to }
        cut.paths = report.paths.filter { members.contains($0.start) }
        return cut
    }
}

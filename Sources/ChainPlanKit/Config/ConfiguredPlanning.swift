import Foundation

extension ChainPlanner {
    /// Plans `url` under the project's rule configuration: the file at `configuration` when given,
    /// else `.chainplan.yml` beside the spec (or beside the bundle given as the spec) when there is
    /// one. A configuration that cannot be read makes the input unusable (CP130, exit 2).
    public func plan(inputAt url: URL, configuration: URL?) -> ChainReport {
        let implicit = url.deletingLastPathComponent().appendingPathComponent(RuleConfiguration.fileName)
        let file = configuration ?? (FileManager.default.fileExists(atPath: implicit.path) ? implicit : nil)
        guard let file else { return plan(inputAt: url) }
        let display = DisplayPath.make(file, relativeTo: options.baseDirectory)
        let read = RuleConfiguration.read(fileAt: file, displayPath: display)
        guard let rules = read.configuration else {
            return ChainReport.unusable(spec: DisplayPath.make(url, relativeTo: options.baseDirectory), diagnostics: read.diagnostics)
        }
        let planner = ChainPlanner(options: rules.applying(to: options))
        return rules.apply(to: planner.plan(inputAt: url))
    }
}

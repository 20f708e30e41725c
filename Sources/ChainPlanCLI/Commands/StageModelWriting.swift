import ChainPlanKit
import Foundation

/// `chainplan stage --write-models`: the decompositions' intermediate versions written into the
/// bundle as new `.xcdatamodel` folders (their `contents` edited from the neighbours' files, so
/// they keep Xcode's dialect). An existing version is never overwritten: a name that exists is a
/// finding and exit 2, before anything is written. Prints what it wrote and the new chain with
/// the custom steps to list under `stages`.
enum StageModelWriting {
    static func write(_ plan: StagePlan, bundle: URL?, order: [String]) throws -> String {
        let decompositions = (plan.decompositions ?? []).filter { !$0.intermediates.isEmpty }
        guard !decompositions.isEmpty else { return "No decomposition needs new model versions: nothing written.\n" }
        guard let bundle else { throw UsageError("--write-models needs the model bundle's path (a spec with \"model\", or the bundle itself)") }
        let bundleName = bundle.lastPathComponent
        let written = StageDecomposer.contents(of: decompositions) { version in
            try? String(contentsOf: bundle.appendingPathComponent("\(version).xcdatamodel/contents"), encoding: .utf8)
        }
        var findings: [Diagnostic] = []
        for (name, text) in written {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            if FileManager.default.fileExists(atPath: folder.path) {
                findings.append(Diagnostic(.unreadableModelBundle, "cannot write the version '\(name)': '\(bundleName)/\(name).xcdatamodel' exists and is never overwritten; rename or remove it first",
                                           at: SourceLocation(file: "\(bundleName)/\(name).xcdatamodel"), versions: [name]))
            } else if text == nil {
                findings.append(Diagnostic(.unreadableModelBundle, "cannot write the version '\(name)': its base version's contents could not be read or edited",
                                           at: SourceLocation(file: bundleName), versions: [name]))
            }
        }
        if !findings.isEmpty { throw UsageError(findings: findings) }
        var out = ""
        for (name, text) in written {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data((text ?? "").utf8).write(to: folder.appendingPathComponent("contents"), options: .withoutOverwriting)
            out += "wrote \(bundleName)/\(name).xcdatamodel/contents\n"
        }
        let chain = StageDecomposer.expandedOrder(order, with: decompositions)
        let stages = decompositions.flatMap { $0.steps.filter { $0.stage == .custom }.map { "\($0.from) -> \($0.to)" } }
        func list(_ items: [String]) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.withoutEscapingSlashes]
            let quoted = items.map { item in (try? encoder.encode(item)).flatMap { String(data: $0, encoding: .utf8) } ?? "\"\"" }
            return "[" + quoted.joined(separator: ", ") + "]"
        }
        out += "new chain:\n  \"chain\": \(list(chain)),\n  \"stages\": \(list(stages))\n"
        return out
    }
}

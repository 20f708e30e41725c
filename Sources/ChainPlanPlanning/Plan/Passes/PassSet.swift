import ChainPlanCore
import ChainPlanReaders
/// Several mapping models that each cover part of one step, run one after another into the same
/// destination (the StackOverflow pattern: `StepOne`, `StepTwo`; reference §8). They are
/// recognised when more than one mapping model matches the same step, and run in name order
/// (natural sort), the order a driver listing them would use. A single mapping model is a pass
/// set of one, checked for coverage only.
package struct PassSet: Sendable {
    package var from: String
    package var to: String
    package var source: ObjectModel
    package var destination: ObjectModel
    /// Display path of the source version's `contents` (for findings about source entities).
    package var sourcePath: String
    /// The mapping models, in the order they run.
    package var models: [MappingModel]

    package init(from: String, to: String, source: ObjectModel, destination: ObjectModel, sourcePath: String, models: [MappingModel]) {
        self.from = from
        self.to = to
        self.source = source
        self.destination = destination
        self.sourcePath = sourcePath
        self.models = models.sorted { VersionOrder.areInIncreasingOrder($0.name, $1.name) }
    }

    /// The entity mappings of each pass.
    var passes: [[PassEntityMapping]] { models.map(PassEntityMapping.of) }

    var versions: [String] { [from, to] }

    /// Every finding of the audit (§8.3), each check once.
    package func audit() -> [Diagnostic] {
        var findings = UnmappedEntityCheck.check(self) + MappedTwiceCheck.check(self)
        guard models.count > 1 else { return findings }
        findings += MandatoryTargetOrderCheck.check(self) + CrossPassKeyCheck.check(self) + PartialMappingModelCheck.check(self)
        return findings.sorted()
    }

    /// Where an entity of the source model is declared.
    func sourceLocation(_ entity: String) -> SourceLocation {
        let declared = source.entity(named: entity)
        return SourceLocation(file: sourcePath, line: declared?.line, column: declared?.column)
    }

    /// The pass (index) that creates each destination entity first, and the mapping that does.
    var firstCreated: [String: (pass: Int, mapping: PassEntityMapping)] {
        var result: [String: (pass: Int, mapping: PassEntityMapping)] = [:]
        for (number, mappings) in passes.enumerated() {
            for mapping in mappings {
                if let to = mapping.destination, result[to] == nil { result[to] = (number, mapping) }
            }
        }
        return result
    }
}

extension PassSet {
    /// The audit of every chain step covered by mapping models: several make a pass set, checked
    /// against every rule of §8.3; one alone is checked for coverage.
    static func audits(_ models: [StepKey: [MappingModel]], steps: [StepKey], bundle: ModelBundle) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for step in Set(steps).sorted() {
            guard let covering = models[step], !covering.isEmpty,
                  let source = bundle.version(named: step.from), let sourceModel = source.model,
                  let destinationModel = bundle.version(named: step.to)?.model else { continue }
            findings += PassSet(from: step.from, to: step.to, source: sourceModel, destination: destinationModel,
                                sourcePath: source.path, models: covering).audit()
        }
        return findings
    }
}

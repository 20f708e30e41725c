import ChainPlanCore
import ChainPlanHashing
import ChainPlanHistory
import ChainPlanReaders
import Foundation

extension DiagnosticCode {
    /// CP410 ShippedMappingModelChanged: a shipped mapping model was edited so that it was made
    /// for other entity hashes.
    ///
    /// Raised by the loading stage against a git revision (`ShippedVersions.mappingModelChange`,
    /// below), for each mapping model the revision also holds.
    package static let shippedMappingModelChanged = DiagnosticCode(
        "CP410", name: "ShippedMappingModelChanged", severity: .error,
        summary: "A shipped mapping model was edited so that its source or destination hashes changed",
        help: "Core Data picks a mapping model for a migration by entity hashes: one qualifies when the hashes of the entities it maps equal the store's model and the app's model (reference §3; an `.xcmappingmodel` gets those hashes from the model snapshots Xcode embeds in it, which is inferred from Xcode's behaviour, not read in code). The mapping model at the revision given to `--against` was made for the models that shipped; the one here was re-made from other models, so the hashes it carries moved and Core Data no longer picks it for the stores it shipped for: they migrate by inference instead (losing what the mapping model did), or fail with 134140 (\"Can't find mapping model for migration\") where the step cannot be inferred. Restore the shipped mapping model and add a new one for the new step.",
        examples: [
            .project("a mapping model without snapshots was left as it shipped",
                     files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                        + [RuleExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V2"))],
                     shippedFiles: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody])
                        + [RuleExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V2"))],
                     expected: 0),
        ])
}

extension ShippedVersions {
    /// CP410 for `mapping` when its `xcmapping.xml` at `revision` (`shipped`) maps entities
    /// whose hashes differ from those it maps now, on either side; nil when the bytes are equal
    /// or the shipped copy has no snapshot to compare.
    static func mappingModelChange(_ mapping: MappingModel, shipped: Data, current: Data, revision: Revision) -> Diagnostic? {
        guard shipped != current else { return nil }
        let display = "\(revision.name):\(mapping.path)"
        guard let past = MappingModelReader.parse(shipped, name: mapping.name, folderDisplay: display, documentDisplay: display + "/xcmapping.xml").model else {
            return nil
        }
        let sides = [
            ("source", past.sourceModel, MappingHashes.source(of: past), mapping.sourceModel, MappingHashes.source(of: mapping), mapping.sourceDataLine),
            ("destination", past.destinationModel, MappingHashes.destination(of: past), mapping.destinationModel, MappingHashes.destination(of: mapping), mapping.destinationDataLine),
        ]
        var moved: [String] = []
        var line: Int?
        for (side, pastModel, before, nowModel, now, dataLine) in sides {
            guard let pastModel, let before, before != now else { continue }
            line = line ?? dataLine ?? mapping.line
            guard let nowModel, let now else {
                moved.append("its \(side) model can no longer be read")
                continue
            }
            let changes = HashDifference.changes(from: pastModel, before, to: nowModel, now)
            moved.append("its \(side) hashes changed (" + changes.prefix(3).map(\.description).joined(separator: "; ")
                             + (changes.count > 3 ? "; and \(changes.count - 3) more" : "") + ")")
        }
        guard !moved.isEmpty else { return nil }
        let madeFor = [past.sourceHint?.version, past.destinationHint?.version].compactMap { $0 }
        let shippedFor = madeFor.count == 2 ? " for '\(madeFor[0])' → '\(madeFor[1])'" : ""
        return Diagnostic(.shippedMappingModelChanged,
                          "the mapping model '\(mapping.name)' shipped at \(revision.name) (\(revision.shortCommit))\(shippedFor) and was edited since: "
                              + moved.joined(separator: "; ") + ", so Core Data no longer picks it for the stores it shipped for: they migrate by inference, "
                              + "or fail with 134140 (\"Can't find mapping model for migration\") where the step cannot be inferred",
                          at: SourceLocation(file: mapping.documentPath, line: line), versions: madeFor)
    }
}

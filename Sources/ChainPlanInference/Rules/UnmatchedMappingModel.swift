import ChainPlanCore
import ChainPlanHashing
import Foundation
import ChainPlanReaders

extension DiagnosticCode {
    /// CP121 UnmatchedMappingModel: a mapping model matches no step of the chain.
    ///
    /// Raised when mapping models are matched to steps (`MappingMatcher.offChain`, `MappingMatcher.unmatched`, below) and for a spec's `mappings` entry off the chain (`mappingEntryOffChain`).
    package static let unmatchedMappingModel = DiagnosticCode(
        "CP121", name: "UnmatchedMappingModel", severity: .warning,
        summary: "A mapping model matches no step of the chain",
        help: "Neither its embedded models nor its stated paths correspond to a step. It is dead weight, or the step it was made for is missing from the chain.",
        examples: [
            .project("a mapping model for V1 → V3, which is not a step (the chain goes through V2)", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("V1ToV3.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V3"))], expected: 1),
            .project("a mapping model for the step V1 → V2", files: RuleExampleFixtures.project([RuleExampleFixtures.note, RuleExampleFixtures.noteWithBody, RuleExampleFixtures.noteWithBody])
                + [RuleExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", RuleExampleFixtures.mappingModel(from: "V1", to: "V2"))], expected: 0),
        ])
}

extension MappingMatcher {
    /// The finding for `mapping`, matched (by its embedded models, or by the paths it names) to
    /// `from` → `to`, which is not a step of the chain.
    static func offChain(_ mapping: MappingModel, from: String, to: String, basis: MappingMatchBasis) -> Diagnostic {
        let how = basis == .content ? "matches '\(from)' → '\(to)' by its embedded models" : "names '\(from)' → '\(to)'"
        return Diagnostic(.unmatchedMappingModel, "mapping model '\(mapping.name)' \(how), which is not a step of the chain",
                          at: SourceLocation(file: mapping.documentPath, line: mapping.line), versions: [from, to])
    }

    /// The finding for `mapping`, which matches no step: why each side fits no version, and the
    /// version it was made from.
    static func unmatched(_ mapping: MappingModel, sources: [String], destinations: [String], bundleName: String?,
                          sourceHashes: [String: Data]?, destinationHashes: [String: Data]?,
                          among hashed: [(name: String, entities: [String: Data])]) -> Diagnostic {
        Diagnostic(.unmatchedMappingModel, unmatchedMessage(mapping, sources: sources, destinations: destinations, bundleName: bundleName)
                       + madeFrom(mapping, sourceHashes: sourceHashes, destinationHashes: destinationHashes, among: hashed),
                   at: SourceLocation(file: mapping.documentPath, line: mapping.line))
    }

    /// For each side no version qualifies for: which mapped entity's hash no longer matches,
    /// and the version the mapping model was made from (its stated version, else the nearest).
    private static func madeFrom(_ mapping: MappingModel, sourceHashes: [String: Data]?, destinationHashes: [String: Data]?,
                                 among hashed: [(name: String, entities: [String: Data])]) -> String {
        var parts: [String] = []
        for (role, hashes, hint) in [("source", sourceHashes, mapping.sourceHint), ("destination", destinationHashes, mapping.destinationHint)] {
            guard let hashes, !hashes.isEmpty, MappingHashes.qualifying(hashes, among: hashed, nonEmpty: true).isEmpty,
                  let nearest = MappingHashes.nearest(hashes, among: hashed) else { continue }
            let stated = hint.flatMap { hint in hashed.first { $0.name == hint.version } }
            let version = stated?.name ?? nearest.version
            let differing = stated.map { entities in VersionHasher.sortedNames(hashes.keys.filter { entities.entities[$0] != hashes[$0] }) }
                ?? nearest.differing
            guard !differing.isEmpty else { continue }
            parts.append("the \(role) hash of \(differing.prefix(3).quotedList)"
                + (differing.count > 3 ? " and \(differing.count - 3) more" : "")
                + (stated != nil ? " no longer matches '\(version)', which it was made from"
                                 : " matches no version; the nearest is '\(version)'"))
        }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: "; ")
    }

    private static func unmatchedMessage(_ mapping: MappingModel, sources: [String], destinations: [String],
                                         bundleName: String?) -> String {
        var reasons: [String] = []
        switch (mapping.sourceModel, sources.isEmpty) {
        case (nil, _): reasons.append("its source snapshot is unreadable")
        case (_, true): reasons.append("its source entity hashes fit no version")
        case (_, false): reasons.append("its source entity hashes fit '\(sources[0])'")
        }
        switch (mapping.destinationModel, destinations.isEmpty) {
        case (nil, _): reasons.append("its destination snapshot is unreadable")
        case (_, true): reasons.append("its destination entity hashes fit no version")
        case (_, false): reasons.append("its destination entity hashes fit '\(destinations[0])'")
        }
        if let source = mapping.sourceHint, let destination = mapping.destinationHint {
            if let stated = [source.bundle, destination.bundle].compactMap({ $0 }).first(where: { !bundleAgrees($0, bundleName) }) {
                reasons.append("its stated paths name the bundle '\(stated)'")
            } else {
                reasons.append("its stated versions '\(source.version)' → '\(destination.version)' are not both in '\(bundleName ?? "the bundle")'")
            }
        } else {
            reasons.append("it states no usable model paths")
        }
        return "mapping model '\(mapping.name)' matches no step of the chain: " + reasons.joined(separator: ", ")
    }
}

extension Diagnostic {
    /// The finding for a spec's `mappings` entry that assigns the mapping model at `path` to
    /// `from` → `to`, which is not a step of the chain (`why`: what the chain has instead).
    package static func mappingEntryOffChain(path: String, from: String, to: String, why: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.unmatchedMappingModel, "mappings assigns '\(path)' to '\(from)' → '\(to)', which is not a step of the chain: \(why)",
                   at: location, versions: [from, to])
    }
}

import Foundation
import ChainPlanTestSupport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Paths used by the mapping tests (located by `#filePath`, never copied into the repo).
enum MappingTestPaths {
    /// …/Tests/ChainPlanKitTests/Readers/MappingTestSupport.swift → package root.
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/Mapping")
    static let corpus = SharedCorpus.corpus
}

/// TEST-ONLY reader of `<Version>.xcdatamodel/contents`, just enough for the mapping tests
/// (entities, parent, abstract, elementID, versionHashModifier, attributes, relationships).
///
/// The lead replaces this with the real model reader after merging; it trusts its input
/// (the corpus and small fixtures) and does no validation.
/// One row of `steps.tsv` that names a mapping model present in the corpus.
struct CorpusMappingRow: Sendable, CustomTestStringConvertible {
    var bundle: String
    var from: String
    var to: String
    var label: String
    var mappingModel: String
    var note: String

    var repository: String { String(bundle.prefix { $0 != "/" }) }
    var bundleURL: URL { MappingTestPaths.corpus.appendingPathComponent(bundle) }
    var mappingURL: URL { MappingTestPaths.corpus.appendingPathComponent(repository).appendingPathComponent(mappingModel) }
    var name: String {
        let last = (mappingModel as NSString).lastPathComponent
        return String(last.dropLast(".xcmappingmodel".count))
    }

    /// `policies=A,B` from the note, or [] when the note has none.
    var notedPolicies: [String]? {
        guard let part = note.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
            .first(where: { $0.hasPrefix("policies=") }) else { return nil }
        return part.dropFirst("policies=".count).split(separator: ",").map(String.init).sorted()
    }

    /// `stored-value-expressions=N` from the note.
    var notedValueExpressions: Int? {
        guard let part = note.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespaces) })
            .first(where: { $0.hasPrefix("stored-value-expressions=") }) else { return nil }
        return Int(part.dropFirst("stored-value-expressions=".count))
    }

    var testDescription: String { name }

    /// Rows whose mapping model is in the corpus (rows marked "(not in corpus)" are skipped
    /// because their file is absent, not because of their content).
    static func load() -> [CorpusMappingRow] {
        let url = MappingTestPaths.corpus.appendingPathComponent("steps.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var rows: [CorpusMappingRow] = []
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 6, columns[4].hasSuffix(".xcmappingmodel") else { continue }
            rows.append(CorpusMappingRow(bundle: columns[0], from: columns[1], to: columns[2], label: columns[3],
                                         mappingModel: columns[4], note: columns[5]))
        }
        return rows
    }
}

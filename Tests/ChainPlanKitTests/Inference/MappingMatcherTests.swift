import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// CoreStore's EvolutionDemo (V1 → V2 with a mapping model, and a V2 → V1 downgrade one),
/// loaded from the corpus, so fixtures can edit a version in memory.
enum Evolution {
    static let folder = "JohnEstropia__CoreStore/Demo/Sources/Demos/Advanced/EvolutionDemo"
    static let bundleName = "Advanced.EvolutionDemo.V1"
    static let v1 = "Advanced.EvolutionDemo.V1"
    static let v2 = "Advanced.EvolutionDemo.V2"
    static let forward = "Advanced.EvolutionDemo.V2.FromV1"
    static let backward = "Advanced.EvolutionDemo.V1.FromV2"

    static func versions() throws -> [ModelVersion] {
        try TestModelLoader.versions(ofBundleAt: MappingTestPaths.corpus.appendingPathComponent("\(folder)/\(bundleName).xcdatamodeld"))
    }

    static func mapping(_ name: String) throws -> MappingModel {
        let path = "\(folder)/\(name).xcmappingmodel"
        let result = MappingModelReader.read(at: MappingTestPaths.corpus.appendingPathComponent(path), displayPath: path)
        guard let model = result.model, result.diagnostics.isEmpty else { throw TestModelLoader.LoadError(description: "\(result.diagnostics)") }
        return model
    }

    /// `versions` with `change` applied to the model of `version`.
    static func editing(_ versions: [ModelVersion], _ version: String, _ change: (inout ObjectModel) -> Void) -> [ModelVersion] {
        versions.map { item in
            guard item.name == version, var model = item.model else { return item }
            change(&model)
            var copy = item
            copy.model = model
            return copy
        }
    }

    static func editAttribute(_ model: inout ObjectModel, _ name: String, _ change: (inout Attribute) -> Void) {
        guard let index = model.entities[0].attributes.firstIndex(where: { $0.name == name }) else { return }
        change(&model.entities[0].attributes[index])
    }
}

/// An in-memory edit of a corpus version and what the forward mapping must then report.
enum VersionEdit: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case destinationOptional, destinationAttributeAdded, destinationType, destinationEntityModifier, sourceAttributeRemoved
    case manyChanges
    // Edits outside the hash: the mapping still matches by content.
    case destinationDefaultValue, destinationClassName, destinationRenamingIdentifier, sourceIndexed

    var testDescription: String { rawValue }

    func apply(_ versions: [ModelVersion]) -> [ModelVersion] {
        switch self {
        case .destinationOptional:
            Evolution.editing(versions, Evolution.v2) { Evolution.editAttribute(&$0, "hasTail") { $0.isOptional = true } }
        case .destinationAttributeAdded:
            Evolution.editing(versions, Evolution.v2) { $0.entities[0].attributes.append(Attribute(name: "color", type: .string, isOptional: true)) }
        case .destinationType:
            Evolution.editing(versions, Evolution.v2) { Evolution.editAttribute(&$0, "numberOfFlippers") { $0.type = .integer16 } }
        case .destinationEntityModifier:
            Evolution.editing(versions, Evolution.v2) { $0.entities[0].versionHashModifier = "v2b" }
        case .sourceAttributeRemoved:
            Evolution.editing(versions, Evolution.v1) { $0.entities[0].attributes.removeAll { $0.name == "dnaCode" } }
        case .manyChanges:
            Evolution.editing(versions, Evolution.v2) { model in
                for name in ["hasHead", "hasTail", "hasVertebrae", "dnaCode"] {
                    Evolution.editAttribute(&model, name) { $0.isTransient = true }
                }
            }
        case .destinationDefaultValue:
            Evolution.editing(versions, Evolution.v2) { Evolution.editAttribute(&$0, "hasTail") { $0.defaultValueString = "NO" } }
        case .destinationClassName:
            Evolution.editing(versions, Evolution.v2) { $0.entities[0].representedClassName = "Renamed" }
        case .destinationRenamingIdentifier:
            Evolution.editing(versions, Evolution.v2) { Evolution.editAttribute(&$0, "hasTail") { $0.renamingIdentifier = "tail" } }
        case .sourceIndexed:
            Evolution.editing(versions, Evolution.v1) { Evolution.editAttribute(&$0, "dnaCode") { $0.isIndexed = true } }
        }
    }

    /// The stale differences expected (empty: still a content match).
    var differences: [String] {
        // One line per mapped entity whose hash moved, with the hash inputs that changed (§3).
        let d = "destination 'Advanced.EvolutionDemo.V2': entity 'Creature' hash no longer matches ("
        switch self {
        case .destinationOptional: return [d + "'Creature.hasTail' (optional: NO → YES))"]
        case .destinationAttributeAdded: return [d + "'Creature.color' (added))"]
        case .destinationType: return [d + "'Creature.numberOfFlippers' (type: Integer 32 → Integer 16))"]
        case .destinationEntityModifier: return [d + "versionHashModifier: '' → 'v2b')"]
        case .sourceAttributeRemoved: return ["source 'Advanced.EvolutionDemo.V1': entity 'Creature' hash no longer matches ('Creature.dnaCode' (removed))"]
        case .manyChanges:
            return [d + ["dnaCode", "hasHead", "hasTail", "hasVertebrae"].map { "'Creature.\($0)' (now transient)" }.joined(separator: "; ") + ")"]
        default: return []
        }
    }
}

@Suite("Mapping matcher: fixtures")
struct MappingMatcherTests {
    static let chain: [(from: String, to: String)] = [(Evolution.v1, Evolution.v2)]

    /// Synthetic versions: B and C are hash-equivalent.
    static func synthetic() -> [ModelVersion] {
        let a = ObjectModel(entities: [Entity(name: "Item", attributes: [Attribute(name: "title", type: .string)])])
        let b = ObjectModel(entities: [Entity(name: "Item", attributes: [Attribute(name: "title", type: .string, isOptional: true)])])
        var c = b
        c.entities[0].representedClassName = "ItemMO"
        return [
            ModelVersion(name: "A", path: "A/contents", model: a),
            ModelVersion(name: "B", path: "B/contents", model: b),
            ModelVersion(name: "C", path: "C/contents", model: c),
            ModelVersion(name: "Legacy", path: "Legacy", isLegacyFormat: true, model: nil),
        ]
    }

    static func mapping(from: String, to: String, statedFrom: String? = nil, statedTo: String? = nil,
                        bundle: String = "Items") -> MappingModel {
        let models = Dictionary(uniqueKeysWithValues: synthetic().compactMap { version in version.model.map { (version.name, $0) } })
        return MappingModel(
            name: "\(from)To\(to)", path: "M.xcmappingmodel",
            statedSourcePath: statedFrom.map { "Old/\(bundle).xcdatamodeld/\($0).xcdatamodel" },
            statedDestinationPath: statedTo.map { "Old/\(bundle).xcdatamodeld/\($0).xcdatamodel" },
            // Core Data matches by the hashes of the entities its entity mappings name (§3): one mapping, Item → Item.
            entityMappings: [EntityMapping(sourceEntity: "Item", destinationEntity: "Item")],
            sourceModel: models[from], destinationModel: models[to], line: 3)
    }

    @Test("among equal versions: chain steps first, then the stated pair, then bundle order", arguments: [
        (["A→C"], "A→B", "A→C", true),
        (["A→B", "A→C"], "A→C", "A→C", true),
        ([], "A→C", "A→C", false),
        ([], nil, "A→B", false),
    ] as [([String], String?, String, Bool)])
    func ambiguity(_ steps: [String], _ stated: String?, _ expected: String, _ isStep: Bool) throws {
        func pair(_ text: String) -> (from: String, to: String) {
            let parts = text.components(separatedBy: "→")
            return (parts[0], parts[1])
        }
        let mapping = Self.mapping(from: "A", to: "B", statedFrom: stated.map { pair($0).from }, statedTo: stated.map { pair($0).to })
        let result = MappingMatcher.match([mapping], versions: Self.synthetic(), bundleName: "Items", steps: steps.map(pair))
        let match = try #require(result.matches.first)
        #expect("\(match.from)→\(match.to)" == expected)
        #expect(match.basis == .content)
        #expect(match.isChainStep == isStep)
        #expect(result.diagnostics.map(\.code) == (isStep ? [] : [.unmatchedMappingModel]))
    }

    /// Under the hash rule (§3) the snapshot's entity hashes decide: marking a field unrecorded
    /// no longer relaxes the match, because the compiled mapping model carries the hashes of
    /// the snapshot as written.
    @Test("a snapshot differing in a hashed field matches by hashes neither with nor without unrecorded fields")
    func tolerance() throws {
        var mapping = Self.mapping(from: "A", to: "B")
        mapping.destinationModel?.entities[0].attributes[0].isOptional = false // differs from B only in optionality
        let strict = MappingMatcher.match([mapping], versions: Self.synthetic(), bundleName: "Items", steps: [(from: "A", to: "B")])
        #expect(strict.matches.isEmpty)
        #expect(strict.diagnostics.map(\.code) == [.unmatchedMappingModel])
        mapping.destinationUnrecordedFields = [.propertyOptional]
        let tolerant = MappingMatcher.match([mapping], versions: Self.synthetic(), bundleName: "Items", steps: [(from: "A", to: "B")])
        #expect(tolerant.matches.isEmpty)
        #expect(tolerant.diagnostics.map(\.code) == [.unmatchedMappingModel])
    }

    @Test("an unreadable snapshot still matches by stated path, without a stale finding")
    func unreadableSnapshot() throws {
        var mapping = Self.mapping(from: "A", to: "B", statedFrom: "A", statedTo: "B")
        mapping.sourceModel = nil
        let result = MappingMatcher.match([mapping], versions: Self.synthetic(), bundleName: "Items", steps: [(from: "A", to: "B")])
        let match = try #require(result.match(from: "A", to: "B"))
        #expect(match.basis == .path)
        #expect(!match.isStale)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a version without a readable model never matches by content, but can by path")
    func legacyVersion() throws {
        let mapping = Self.mapping(from: "A", to: "B", statedFrom: "A", statedTo: "Legacy")
        let result = MappingMatcher.match([mapping], versions: Self.synthetic(), bundleName: "Items",
                                          steps: [(from: "A", to: "Legacy")])
        // Content says A → B (not a step); that wins over the stated A → Legacy.
        #expect(result.matches.map { "\($0.from)→\($0.to) \($0.basis)" } == ["A→B content"])
        var unreadable = mapping
        unreadable.destinationModel = nil
        let byPath = MappingMatcher.match([unreadable], versions: Self.synthetic(), bundleName: "Items",
                                          steps: [(from: "A", to: "Legacy")])
        #expect(byPath.matches.map { "\($0.from)→\($0.to) \($0.basis) \($0.isStale)" } == ["A→Legacy path false"])
        #expect(byPath.diagnostics.isEmpty)
    }

    @Test("stated paths of another bundle: content still matches, otherwise the mapping is foreign")
    func statedBundle() throws {
        let content = Self.mapping(from: "A", to: "B", statedFrom: "A", statedTo: "B", bundle: "Elsewhere")
        let matched = MappingMatcher.match([content], versions: Self.synthetic(), bundleName: "Items", steps: [(from: "A", to: "B")])
        #expect(matched.match(from: "A", to: "B")?.basis == .content)

        var half = content
        half.sourceModel = ObjectModel(entities: [Entity(name: "Unrelated")])
        let unmatched = MappingMatcher.match([half], versions: Self.synthetic(), bundleName: "Items", steps: [(from: "A", to: "B")])
        #expect(unmatched.unmatched == [half])
        #expect(unmatched.diagnostics.map(\.message) == [
            "mapping model 'AToB' matches no step of the chain: its source entity hashes fit no version, its destination entity hashes fit 'B', its stated paths name the bundle 'Elsewhere'",
        ])

        var other = half
        other.destinationModel = ObjectModel(entities: [Entity(name: "Unrelated")])
        other.entityMappings = [EntityMapping(sourceEntity: "Unrelated", destinationEntity: "Unrelated")]
        let foreign = MappingMatcher.match([other], versions: Self.synthetic(), bundleName: "Items", steps: [(from: "A", to: "B")])
        #expect(foreign.foreign == [other])
        #expect(foreign.matches.isEmpty)
        #expect(foreign.diagnostics.isEmpty)

        // Without a bundle name the stated versions decide, and the snapshots are stale.
        let unnamed = MappingMatcher.match([half], versions: Self.synthetic(), bundleName: nil, steps: [(from: "A", to: "B")])
        #expect(unnamed.matches.map { "\($0.from)→\($0.to) \($0.basis)" } == ["A→B path"])
        #expect(unnamed.matches.first?.staleDifferences == ["source 'A': entity 'Item' is mapped but not in the embedded model"])
        #expect(unnamed.diagnostics.map(\.code) == [.staleMappingModel])
    }

    @Test("nothing to match gives nothing")
    func empty() {
        #expect(MappingMatcher.match([], versions: Self.synthetic(), bundleName: "Items", steps: []) == MappingMatcher.Result())
    }
}

extension CorpusTests {
    /// The tests of `MappingMatcherTests` that read `../shared`.
    @Suite struct MappingMatcherEvolutionCorpusTests {
        @Test("editing a version after the mapping was made: stale (CP208) only for hash-relevant edits", arguments: VersionEdit.allCases)
        func staleMapping(_ edit: VersionEdit) throws {
            let mapping = try Evolution.mapping(Evolution.forward)
            let versions = edit.apply(try Evolution.versions())
            #expect(versions != (try Evolution.versions()))
            let result = MappingMatcher.match([mapping], versions: versions, bundleName: Evolution.bundleName, steps: MappingMatcherTests.chain)
            let match = try #require(result.matches.first)
            #expect(result.matches.count == 1)
            #expect(match.from == Evolution.v1)
            #expect(match.to == Evolution.v2)
            #expect(match.isChainStep)
            if edit.differences.isEmpty {
                #expect(match.basis == .content)
                #expect(!match.isStale)
                #expect(result.diagnostics.isEmpty)
            } else {
                #expect(match.basis == .path)
                #expect(match.isStale)
                #expect(match.staleDifferences == edit.differences)
                let shown = edit.differences.prefix(3).joined(separator: "; ")
                let more = edit.differences.count > 3 ? " (and \(edit.differences.count - 3) more)" : ""
                #expect(result.diagnostics == [
                    Diagnostic(.staleMappingModel, "mapping model '\(Evolution.forward)' names '\(Evolution.v1)' → '\(Evolution.v2)' but its embedded models no longer match: \(shown)\(more)",
                               at: SourceLocation(file: "\(Evolution.folder)/\(Evolution.forward).xcmappingmodel/xcmapping.xml", line: 71),
                               versions: [Evolution.v1, Evolution.v2]),
                ])
                #expect(result.diagnostics.first?.severity == .warning)
            }
        }

        @Test("a content match that is not a chain step is CP121 and does not cover any step")
        func downgradeNotInChain() throws {
            let backward = try Evolution.mapping(Evolution.backward)
            let forward = try Evolution.mapping(Evolution.forward)
            let result = MappingMatcher.match([backward, forward], versions: try Evolution.versions(), bundleName: Evolution.bundleName,
                                              steps: MappingMatcherTests.chain)
            #expect(result.matches.map { "\($0.mappingModel.name) \($0.from)→\($0.to) \($0.basis) \($0.isChainStep)" } == [
                "\(Evolution.backward) \(Evolution.v2)→\(Evolution.v1) content false",
                "\(Evolution.forward) \(Evolution.v1)→\(Evolution.v2) content true",
            ])
            #expect(result.diagnostics == [
                Diagnostic(.unmatchedMappingModel, "mapping model '\(Evolution.backward)' matches '\(Evolution.v2)' → '\(Evolution.v1)' by its embedded models, which is not a step of the chain",
                           at: SourceLocation(file: "\(Evolution.folder)/\(Evolution.backward).xcmappingmodel/xcmapping.xml", line: 70),
                           versions: [Evolution.v2, Evolution.v1]),
            ])
            #expect(result.match(from: Evolution.v2, to: Evolution.v1) == nil)
            #expect(result.match(from: Evolution.v1, to: Evolution.v2)?.mappingModel.name == Evolution.forward)
        }

        @Test("a stale mapping whose stated step is not in the chain gives CP208 and CP121")
        func staleAndNotAStep() throws {
            let mapping = try Evolution.mapping(Evolution.forward)
            let versions = VersionEdit.destinationOptional.apply(try Evolution.versions())
            let result = MappingMatcher.match([mapping], versions: versions, bundleName: Evolution.bundleName, steps: [])
            #expect(result.diagnostics.map(\.code) == [.unmatchedMappingModel, .staleMappingModel])
            #expect(result.diagnostics.first?.message
                == "mapping model '\(Evolution.forward)' names '\(Evolution.v1)' → '\(Evolution.v2)', which is not a step of the chain")
            #expect(result.matches.first?.isChainStep == false)
            #expect(result.matches.first?.isStale == true)
        }

        @Test("a mapping matching neither by content nor by path is CP121")
        func unmatched() throws {
            let mapping = try Evolution.mapping(Evolution.forward)
            let versions = VersionEdit.sourceAttributeRemoved.apply(try Evolution.versions()).filter { $0.name == Evolution.v1 }
            let result = MappingMatcher.match([mapping], versions: versions, bundleName: Evolution.bundleName, steps: [])
            #expect(result.matches.isEmpty)
            #expect(result.unmatched == [mapping])
            #expect(result.diagnostics == [
                Diagnostic(.unmatchedMappingModel, "mapping model '\(Evolution.forward)' matches no step of the chain: its source entity hashes fit no version, its destination entity hashes fit no version, its stated versions '\(Evolution.v1)' → '\(Evolution.v2)' are not both in '\(Evolution.bundleName)'; the source hash of 'Creature' no longer matches '\(Evolution.v1)', which it was made from; the destination hash of 'Creature' matches no version; the nearest is '\(Evolution.v1)'",
                           at: SourceLocation(file: "\(Evolution.folder)/\(Evolution.forward).xcmappingmodel/xcmapping.xml", line: 71)),
            ])
        }

        @Test("another bundle's mapping model is set aside without a finding")
        func foreignBundle() throws {
            let sync = "twofas__2fas-ios/TwoFAS/Sync/Other/Sync2-Sync3.xcmappingmodel"
            let storage = "twofas__2fas-ios/TwoFAS/Storage/TwoFas-TwoFas2.xcmappingmodel"
            let syncMapping = try #require(MappingModelReader.read(at: MappingTestPaths.corpus.appendingPathComponent(sync), displayPath: sync).model)
            let storageMapping = try #require(MappingModelReader.read(at: MappingTestPaths.corpus.appendingPathComponent(storage), displayPath: storage).model)
            let versions = try TestModelLoader.versions(ofBundleAt: MappingTestPaths.corpus.appendingPathComponent("twofas__2fas-ios/TwoFAS/Storage/TwoFAS.xcdatamodeld"))
            let result = MappingMatcher.match([syncMapping, storageMapping], versions: versions, bundleName: "TwoFAS",
                                              steps: [(from: "TwoFAS", to: "TwoFAS2")])
            #expect(result.foreign == [syncMapping])
            #expect(result.unmatched.isEmpty)
            #expect(result.diagnostics.isEmpty)
            #expect(result.match(from: "TwoFAS", to: "TwoFAS2")?.basis == .content)
        }
    }
}

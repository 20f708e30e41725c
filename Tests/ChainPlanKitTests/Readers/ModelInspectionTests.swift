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

@Suite("ModelInspection (chainplan inspect)")
struct ModelInspectionTests {
    static func inspect(_ relative: String, version: String? = nil) -> ModelInspection {
        let result = ModelTestSupport.readCorpusBundle(relative)
        return ModelInspection(result: result, displayPath: relative, detailVersion: version)
    }

    static func json(_ report: ModelInspection) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: report.jsonData())
        return try #require(object as? [String: Any])
    }

    @Test("JSON shape: keys, null current version, diagnostics through Codable")
    func jsonShape() throws {
        // Two versions and an empty .xccurrentversion: no current version, one CP113 warning.
        let name = "EmptyCurrent.xcdatamodeld"
        let result = ModelBundleReader().read(bundleAt: ModelTestSupport.fixtures.appendingPathComponent(name), displayPath: name)
        let report = ModelInspection(result: result, displayPath: name, detailVersion: nil)
        let object = try Self.json(report)
        #expect(Set(object.keys) == ["bundle", "currentVersion", "versions", "diagnostics", "schemaVersion", "tool"])
        #expect(object["bundle"] as? String == name)
        #expect(object["currentVersion"] is NSNull)
        let versions = try #require(object["versions"] as? [[String: Any]])
        #expect(versions.map { $0["name"] as? String } == ["Shop", "Shop 2"])
        let first = try #require(versions.first)
        #expect(Set(first.keys) == ["name", "entities", "attributes", "relationships", "legacyFormat", "current", "versionIdentifier", "inheritance"])
        #expect((first["inheritance"] as? [Any])?.isEmpty == true)
        #expect(first["entities"] as? Int == 1)
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.map { $0["code"] as? String } == ["CP113"])
        #expect(diagnostics.first?["severity"] as? String == "warning")
        #expect(diagnostics.first?["file"] as? String == "\(name)/.xccurrentversion")
        #expect(!report.diagnostics.contains { $0.severity == .error })
        // Sorted keys and pretty printing.
        let text = String(decoding: report.jsonData(), as: UTF8.self)
        #expect(text.hasPrefix("{\n  \"bundle\" : "))
        #expect(text.hasSuffix("}\n"))
    }

    /// Entity names come from hostile XML: a right-to-left override must not reach the terminal.
    @Test("names with bidi controls are escaped in the text", arguments: ["\u{202E}", "\u{2066}", "\u{200F}"])
    func bidiEscaped(_ control: String) throws {
        let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel"><entity name="Note\(control)txt" representedClassName="Note">\
        <attribute name="body\(control)" optional="YES" attributeType="String"/></entity></model>
        """
        let bundle = try ModelBundleReaderTests.makeBundle(["V1": contents], currentVersion: "V1")
        defer { ModelBundleReaderTests.remove(bundle) }
        let result = ModelBundleReader().read(bundleAt: bundle, displayPath: "Temp.xcdatamodeld")
        let text = ModelInspection(result: result, displayPath: "Temp.xcdatamodeld", detailVersion: "V1").text()
        let escaped = "\\u{\(String(control.unicodeScalars.first!.value, radix: 16, uppercase: true))}"
        #expect(!text.contains(control))
        #expect(text.contains("entity Note\(escaped)txt"))
        #expect(text.contains("body\(escaped): String, optional"))
    }

    @Test("a legacy version that cannot be decoded says so")
    func legacyUndecoded() throws {
        let name = "Legacy.xcdatamodeld"
        let result = ModelBundleReader().read(bundleAt: ModelTestSupport.fixtures.appendingPathComponent(name), displayPath: name)
        let text = ModelInspection(result: result, displayPath: name, detailVersion: "Notes").text()
        #expect(text.contains("    Notes    legacy binary format, cannot be decoded\n"))
        #expect(text.contains("  (legacy binary format, cannot be decoded)\n"))
        #expect(text.contains("no 'contents') and cannot be read [CP112]"))
    }

    @Test("--version shows every attribute field that is set")
    func attributeFields() throws {
        let name = "AllFields.xcdatamodeld"
        let result = ModelBundleReader().read(bundleAt: ModelTestSupport.fixtures.appendingPathComponent(name), displayPath: name)
        let report = ModelInspection(result: result, displayPath: name, detailVersion: "AllFields")
        let text = report.text()
        for line in [
            "    title: String, optional, indexed, default 'Untitled', min '1', max '200', renaming ID 'name'\n",
            "    created: Date, default '725328000', min '0', max '978307200'\n",
            "    blob: Binary, optional, external storage\n",
            "    colour: Transformable, optional, transformer 'NSSecureUnarchiveFromData', class 'UIColor'\n",
            "    tagCount: Integer 32, optional, derived 'tags.@count'\n",
            "    identifier: UUID\n",
            "    blob: Binary, optional, external storage, inherited from Item\n",
        ] {
            #expect(text.contains(line), "\(line)")
        }
        let title = try #require(report.version?.entities?.first?.attributes.first)
        #expect(title.minimum == "1" && title.maximum == "200" && title.indexed)
    }

    /// What `inspect`'s exit status is made of (the CLI maps it: 2 unusable, 1 other errors).
    @Test("findings: unusable input, other errors, none")
    func findingsBehindTheExitStatus() {
        let fixtures = ModelTestSupport.fixtures
        func status(_ name: String) -> Int32 {
            let result = ModelBundleReader().read(bundleAt: fixtures.appendingPathComponent(name), displayPath: name)
            let diagnostics = ModelInspection(result: result, displayPath: name).diagnostics
            return diagnostics.hasUnusableInput ? 2 : diagnostics.contains { $0.severity == .error } ? 1 : 0
        }
        #expect(status("Broken.xcdatamodeld") == 2)
        #expect(status("MissingCurrent.xcdatamodeld") == 1)
        #expect(status("Legacy.xcdatamodeld") == 0)
        #expect(status("Nope.xcdatamodeld") == 2)
    }
}

extension CorpusTests {
    /// The tests of `ModelInspectionTests` that read `../shared`.
    @Suite struct ModelInspectionCorpusTests {
        @Test("counts are of declared entity properties, versions in natural order")
        func counts() throws {
            let relative = "woocommerce__woocommerce-ios/Storage/Storage/Model/WooCommerce.xcdatamodeld"
            let report = ModelInspectionTests.inspect(relative)
            #expect(report.bundle == relative)
            #expect(report.currentVersion == "Model 117")
            #expect(report.versions.count == 117)
            #expect(report.versions.map(\.name).prefix(3) == ["Model", "Model 2", "Model 3"])
            #expect(report.versions.filter(\.current).map(\.name) == ["Model 117"])
            #expect(!report.diagnostics.contains { $0.severity == .error })
            // Count independently with a text scan of the file.
            let text = try String(contentsOf: ModelTestSupport.corpus
                .appendingPathComponent("\(relative)/Model 117.xcdatamodel/contents"), encoding: .utf8)
            func occurrences(_ needle: String) -> Int { text.components(separatedBy: needle).count - 1 }
            let last = try #require(report.versions.last)
            #expect(last.entities == occurrences("<entity "))
            #expect(last.attributes == occurrences("<attribute "))
            #expect(last.relationships == occurrences("<relationship "))
            #expect(last.legacyFormat == false)
        }

        @Test("legacy versions are decoded from their binary archive")
        func legacyCounts() throws {
            let report = ModelInspectionTests.inspect("Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld")
            let first = try #require(report.versions.first)
            #expect(first.name == "Simplenote")
            #expect(first.legacyFormat)
            #expect(first.entities == 1)
            let object = try ModelInspectionTests.json(report)
            let versions = try #require(object["versions"] as? [[String: Any]])
            let firstObject = try #require(versions.first)
            #expect(firstObject["entities"] as? Int == 1)
            #expect(firstObject["legacyFormat"] as? Bool == true)
            #expect(!report.diagnostics.contains { $0.severity == .error })
            // The text says what happened: decoded, with its counts; CP112 has no stray space before its semicolon.
            #expect(report.text().contains("    Simplenote    1 entity, 16 attributes, 0 relationships (legacy binary format, decoded from 'elements')\n"))
            #expect(!report.text().contains("not read"))
            let legacy = try #require(report.diagnostics.first { $0.code == .legacyModelFormat })
            #expect(legacy.message.contains("no 'contents'); chainplan decoded its binary 'elements' archive"))
            let detail = ModelInspectionTests.inspect("Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld", version: "Simplenote")
            #expect(detail.text().contains("Version 'Simplenote' (Automattic__simplenote-ios/Simplenote/Simplenote.xcdatamodeld/Simplenote.xcdatamodel)\n"
                + "  (legacy binary format, decoded from its 'elements' archive; no line numbers)\n  entity "))
        }

        @Test("inheritance per version: JSON entries and a compact text line")
        func inheritanceSummary() throws {
            let relative = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
            let report = ModelInspectionTests.inspect(relative)
            let second = try #require(report.versions.first { $0.name == "SampleModel2" })
            #expect(second.inheritance == [
                ModelInspection.InheritanceEntry(entity: "Car", parent: nil, root: "Car", abstract: false),
                ModelInspection.InheritanceEntry(entity: "LuxuryCar", parent: "SportCar", root: "Car", abstract: false),
                ModelInspection.InheritanceEntry(entity: "SportCar", parent: "Car", root: "Car", abstract: false),
            ])
            let object = try ModelInspectionTests.json(report)
            let versions = try #require(object["versions"] as? [[String: Any]])
            let entries = try #require(versions[1]["inheritance"] as? [[String: Any]])
            #expect(entries.count == 3)
            #expect(Set(entries[1].keys) == ["entity", "parent", "root", "abstract"])
            #expect(entries[1]["root"] as? String == "Car")
            #expect(report.text().contains("    SampleModel2  4 entities, 8 attributes, 2 relationships\n"
                + "      inheritance: LuxuryCar : SportCar (root Car), SportCar : Car\n"))
            let grocery = ModelBundleReader().read(bundleAt: ModelTestSupport.packageRoot.appendingPathComponent("Chains/grocery-dude/Model.xcdatamodeld"),
                                                   displayPath: "Model.xcdatamodeld")
            #expect(ModelInspection(result: grocery, displayPath: "Model.xcdatamodeld").text()
                .contains("      inheritance: LocationAtHome : Location, LocationAtShop : Location; abstract: Location\n"))
        }

        @Test("--version shows parent, root, subentities and inherited properties")
        func inheritanceDetail() throws {
            let relative = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
            let report = ModelInspectionTests.inspect(relative, version: "SampleModel2")
            let entities = try #require(report.version?.entities)
            let luxury = try #require(entities.first { $0.name == "LuxuryCar" })
            #expect(luxury.root == "Car")
            #expect(luxury.attributes.map(\.name) == ["isLimitedEdition"])
            #expect(luxury.inheritedAttributes.map { "\($0.name)<\($0.inheritedFrom ?? "")" }
                == ["maker<Car", "markedForDeletionAsOf<Car", "model<Car", "numberPlate<Car"])
            #expect(luxury.inheritedRelationships.map { "\($0.name)<\($0.inheritedFrom ?? "")" } == ["owner<Car"])
            let car = try #require(entities.first { $0.name == "Car" })
            #expect(car.root == "Car")
            #expect(car.subentities == ["SportCar"])
            #expect(car.inheritedAttributes.isEmpty)
            let text = report.text()
            #expect(text.contains("  entity Car <- SportCar\n"))
            #expect(text.contains("""
                  entity LuxuryCar : SportCar (root Car) [renaming ID 'ExpensiveSportCar']
                    maker: String, optional, inherited from Car
                """))
            #expect(text.contains("    owner -> Person, to-one, optional, inverse 'cars', Nullify, inherited from Car\n"))
        }

        @Test("--version lists entities in full")
        func detail() throws {
            let relative = "alemar11__CoreDataPlus/Tests/Resources/SampleModel/SampleModel.xcdatamodeld"
            let report = ModelInspectionTests.inspect(relative, version: "SampleModel2")
            let detail = try #require(report.version)
            #expect(detail.name == "SampleModel2")
            #expect(detail.path == "\(relative)/SampleModel2.xcdatamodel/contents")
            let entities = try #require(detail.entities)
            let luxury = try #require(entities.first { $0.name == "LuxuryCar" })
            #expect(luxury.parent == "SportCar")
            #expect(luxury.renamingIdentifier == "ExpensiveSportCar")
            let object = try ModelInspectionTests.json(report)
            let version = try #require(object["version"] as? [String: Any])
            let listed = try #require(version["entities"] as? [[String: Any]])
            #expect(listed.count == entities.count)
            let first = try #require(listed.first)
            #expect(Set(first.keys) == ["name", "parent", "abstract", "renamingIdentifier", "line", "attributes", "relationships",
                                        "root", "subentities", "inheritedAttributes", "inheritedRelationships"])
            let attributes = try #require(listed.flatMap { ($0["attributes"] as? [[String: Any]]) ?? [] }.first)
            #expect(Set(attributes.keys) == ["name", "type", "optional", "transient", "default", "renamingIdentifier",
                                             "minimum", "maximum", "indexed", "derivation", "valueTransformer", "externalStorage",
                                             "customClass", "inheritedFrom"])
            let relationships = listed.flatMap { ($0["relationships"] as? [[String: Any]]) ?? [] }
            let relationship = try #require(relationships.first)
            #expect(Set(relationship.keys) == ["name", "destination", "inverse", "toMany", "ordered", "optional", "deletionRule", "renamingIdentifier",
                                               "inheritedFrom"])
            #expect(report.text().contains("entity LuxuryCar : SportCar"))
        }

        @Test("text summary")
        func text() {
            let report = ModelInspectionTests.inspect("duckduckgo__iOS/DuckDuckGo/AppRatingPrompt.xcdatamodeld")
            #expect(report.text() == """
                Bundle: duckduckgo__iOS/DuckDuckGo/AppRatingPrompt.xcdatamodeld
                Current version: 'AppRatingPrompt 2'
                Versions (2, natural order; * = current):
                    AppRatingPrompt    1 entity, 3 attributes, 0 relationships
                  * AppRatingPrompt 2  1 entity, 4 attributes, 0 relationships

                No findings.

                """)
        }
    }
}

import Foundation
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

/// Composite attributes (iOS 17): each element of the composite type is stored in a column of
/// its own, so a change to an element is judged like the same change to an attribute, named
/// `attribute.element`. Read from `contents` XML, as Xcode writes it.
struct CompositeInferenceTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The `<composite name="Location">` elements of each version.
        var source: String
        var destination: String
        var inferable: Bool
        var needsMigration: Bool = true
        var codes: [DiagnosticCode] = []
        var testDescription: String { name }
    }

    static func model(_ elements: String, attribute: String = #"<attribute name="where" optional="YES" attributeType="Composite" composite="Location"/>"#) -> ObjectModel? {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" minimumToolsVersion="Automatic">
                <entity name="Visit" representedClassName="Visit" syncable="YES">
                    <attribute name="date" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                    \(attribute)
                </entity>
                <composite name="Location">
                    \(elements)
                </composite>
                <composite name="Point">
                    <attribute name="x" optional="YES" attributeType="Double" defaultValueString="0" usesScalarValueType="YES"/>
                </composite>
            </model>
            """
        return ModelContentsParser().parse(Data(xml.utf8), file: "contents").model
    }

    static let latitude = #"<attribute name="latitude" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>"#

    static let cases: [Case] = [
        Case(name: "no change", source: latitude, destination: latitude, inferable: true, needsMigration: false),
        Case(name: "optional element added", source: latitude,
             destination: latitude + #"<attribute name="label" optional="YES" attributeType="String"/>"#, inferable: true),
        Case(name: "required element without default added", source: latitude,
             destination: latitude + #"<attribute name="longitude" attributeType="Double" usesScalarValueType="YES"/>"#,
             inferable: true),  // inferred, flagged "could fail validation" (§4.2)
        Case(name: "required element with default added", source: latitude,
             destination: latitude + #"<attribute name="longitude" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>"#,
             inferable: true),
        Case(name: "element removed", source: latitude + #"<attribute name="label" optional="YES" attributeType="String"/>"#,
             destination: latitude, inferable: true, codes: [.dataRemoved]),
        Case(name: "element type changed to a string", source: latitude,
             destination: #"<attribute name="latitude" optional="YES" attributeType="String"/>"#, inferable: false, codes: [.attributeTypeChange]),
        Case(name: "element renamed with its renaming identifier", source: latitude,
             destination: #"<attribute name="lat" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES" elementID="latitude"/>"#,
             inferable: true),
        Case(name: "nested composite element added", source: latitude,
             destination: latitude + #"<attribute name="origin" optional="YES" attributeType="Composite" composite="Point"/>"#, inferable: true),
    ]

    @Test(arguments: cases)
    func compositeElementChanges(_ test: Case) throws {
        let source = try #require(Self.model(test.source))
        let destination = try #require(Self.model(test.destination))
        let mapping = MappingInference.infer(from: source, to: destination)
        #expect(mapping.needsMigration == test.needsMigration, "\(mapping.changes.map(\.detail))")
        #expect(mapping.isInferable == test.inferable, "\(mapping.changes.map(\.detail))")
        #expect(Set(mapping.changes.compactMap(\.code)) == Set(test.codes), "\(mapping.changes.map(\.detail))")
        #expect(mapping.changes.filter { $0.verdict != .noMigration }.allSatisfy { $0.property?.hasPrefix("where.") == true })
    }

    /// A composite type that contains itself is followed once, not forever.
    @Test func aCompositeThatContainsItselfStops() throws {
        let looping = latitudeWith(#"<attribute name="inner" optional="YES" attributeType="Composite" composite="Location"/>"#)
        let model = try #require(Self.model(looping))
        let view = ResolvedView(model)
        let attribute = try #require(model.entities.first?.attributes.first { $0.name == "where" })
        #expect(view.elements(of: attribute).map(\.name) == ["where.latitude"])
        #expect(!MappingInference.infer(from: model, to: model).needsMigration)
    }

    func latitudeWith(_ extra: String) -> String { Self.latitude + extra }
}

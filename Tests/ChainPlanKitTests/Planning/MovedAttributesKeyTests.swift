import Foundation
import Testing
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// The staged decomposition pairs entities and properties by the same §4.1 key as inference
/// (`InferenceRules.key`): an empty renaming identifier counts as none, so two properties with
/// `elementID=""` are not one key (it used to take `""` itself as the key, and a moved attribute
/// went unseen whenever another property of its entity had an empty identifier).
struct MovedAttributesKeyTests {
    static func model(_ entities: String) -> ObjectModel? {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
        return ModelContentsParser().parse(Data(text.utf8), file: "contents").model
    }

    static func old(_ identifier: String) -> String {
        """
        <entity name="Aircraft" representedClassName="Aircraft">
          <attribute name="flightData" optional="YES" attributeType="Binary"\(identifier)/>
          <attribute name="name" optional="YES" attributeType="String"\(identifier)/>
        </entity>
        """
    }

    static func new(_ identifier: String) -> String {
        """
        <entity name="Aircraft" representedClassName="Aircraft">
          <attribute name="name" optional="YES" attributeType="String"\(identifier)/>
          <relationship name="flightRecord" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="FlightData" inverseName="aircraft" inverseEntity="FlightData"/>
        </entity>
        <entity name="FlightData" representedClassName="FlightData">
          <attribute name="data" optional="YES" attributeType="Binary"/>
          <relationship name="aircraft" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Aircraft" inverseName="flightRecord" inverseEntity="Aircraft"/>
        </entity>
        """
    }

    @Test("a move is found whether or not the entity's properties carry empty identifiers", arguments: ["", #" elementID="""#])
    func emptyIdentifiersAreNone(_ identifier: String) throws {
        let old = try #require(Self.model(Self.old(identifier)))
        let new = try #require(Self.model(Self.new(identifier)))
        let moves = MovedAttributes.find(old: old, new: new)
        #expect(moves.map(\.entity) == ["Aircraft"])
        #expect(moves.first?.destination == "FlightData")
    }

    @Test("the decomposition's key is inference's key", arguments: [
        ("name", nil, "name"), ("name", "", "name"), ("name", "Old", "Old"),
    ] as [(String, String?, String)])
    func sameKey(name: String, identifier: String?, expected: String) {
        #expect(MovedAttributes.key(name, identifier) == expected)
        #expect(MovedAttributes.key(name, identifier) == InferenceRules.key(name: name, renamingIdentifier: identifier))
    }
}

/// What rule examples are made of: small models (`<entity>` elements), and the files of
/// project folders (specs, model versions, mapping models).
package enum RuleExampleFixtures {
    /// A model version's `contents` with these `<entity>` elements.
    package static func contents(_ entities: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
    }

    package static func version(_ name: String, _ entities: String) -> RuleExample.File {
        RuleExample.File("Model.xcdatamodeld/\(name).xcdatamodel/contents", contents(entities))
    }

    package static func current(_ name: String) -> RuleExample.File {
        RuleExample.File("Model.xcdatamodeld/.xccurrentversion", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name).xcdatamodel</string></dict></plist>
            """)
    }

    package static func spec(_ versions: [String], extra: String = "") -> RuleExample.File {
        RuleExample.File("chain.json", "{\"chain\": [\(versions.map { "\"\($0)\"" }.joined(separator: ", "))], \"model\": \"Model.xcdatamodeld\"\(extra)}")
    }

    package static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    package static let noteWithBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    package static let noteWithNumericTitle = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#
    package static let numericTitleWithBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    package static let person = #"<entity name="Person"><attribute name="age" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/></entity>"#
    package static let personAgeRangeWithName = #"<entity name="Person"><attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150" usesScalarValueType="YES"/><attribute name="name" optional="YES" attributeType="String"/></entity>"#

    /// Xcode's dialect (one element per line): `--write-models` edits the files line by line.
    package static let aircraft = """
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES">
                <attribute name="flightData" optional="YES" attributeType="Binary"/>
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        """
    package static let aircraftWithFlightData = """
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="flightRecord" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="FlightData" inverseName="aircraft" inverseEntity="FlightData"/>
            </entity>
            <entity name="FlightData" representedClassName="FlightData" syncable="YES">
                <attribute name="data" optional="YES" attributeType="Binary"/>
                <relationship name="aircraft" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Aircraft" inverseName="flightRecord" inverseEntity="Aircraft"/>
            </entity>
        """

    /// A bundle of versions `V1`, `V2`, … with these entities, the last one current, and its spec.
    package static func project(_ versions: [String], extra: String = "") -> [RuleExample.File] {
        let names = RuleExample.versionNames(versions.count)
        return [spec(names, extra: extra)] + zip(names, versions).map { version($0, $1) } + [current(names.last ?? "V1")]
    }

    /// A mapping model's `xcmapping.xml` that names its source and destination model versions but
    /// embeds no model snapshots.
    package static func mappingModel(from source: String, to destination: String) -> String {
        """
        <?xml version="1.0" standalone="yes"?>
        <database>
            <object type="XDDEVMAPPINGMODEL" id="z101">
                <attribute name="sourcemodelpath" type="string">Model.xcdatamodeld/\(source).xcdatamodel</attribute>
                <attribute name="destinationmodelpath" type="string">Model.xcdatamodeld/\(destination).xcdatamodel</attribute>
            </object>
        </database>
        """
    }

    /// A mapping model for `source` → `destination` (named by path, no snapshots) with these
    /// entity mappings (source, destination): one pass of a pass set.
    package static func passMappingModel(_ name: String, from source: String, to destination: String, _ mappings: [(String, String)]) -> RuleExample.File {
        let objects = mappings.enumerated().map { number, mapping in
            """
                <object type="XDDEVENTITYMAPPING" id="z\(201 + number)">
                    <attribute name="name" type="string">\(mapping.0)To\(mapping.1)</attribute>
                    <attribute name="sourcename" type="string">\(mapping.0)</attribute>
                    <attribute name="destinationname" type="string">\(mapping.1)</attribute>
                    <attribute name="mappingnumber" type="int16">\(number + 1)</attribute>
                </object>

            """
        }.joined()
        let text = mappingModel(from: source, to: destination).replacingOccurrences(of: "</database>", with: objects + "</database>")
        return RuleExample.File("\(name).xcmappingmodel/xcmapping.xml", text)
    }

    package static let noteTagFolder = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    package static let noteTag = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    /// `Note.folder` to `Folder`, required or optional, `Folder` with or without a uniqueness constraint on `name`.
    package static func noteInFolder(required: Bool, uniqueName: Bool) -> String {
        let constraint = uniqueName ? #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>"# : ""
        return #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><relationship name="folder" optional="\#(required ? "NO" : "YES")" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity><entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/>\#(constraint)</entity>"#
    }

    // Classification examples
    package static let pinnedNoDefault = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="pinned" attributeType="Boolean"/></entity>"#
    package static let pinnedWithDefault = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="pinned" attributeType="Boolean" defaultValueString="NO"/></entity>"#
    package static let tag = #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    package static let folder = #"<entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    package static let toManyTags = note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag
    package static let toOneTags = note.replacingOccurrences(of: "</entity>", with: #"<relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#) + tag

    // Staged-migration examples
    package static let untitled = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    package static let bodyAndNumericTitle = #"<entity name="Note"><attribute name="body" optional="YES" attributeType="String"/><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#
    package static let heading = #"<entity name="Note"><attribute name="heading" optional="YES" attributeType="String" elementID="title"/></entity>"#
    package static let caption = #"<entity name="Note"><attribute name="caption" optional="YES" attributeType="String" elementID="heading"/></entity>"#
    package static let three = [note, noteWithBody, noteWithBody + "\n" + #"<entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#]

    /// A SwiftData source file `Models.swift`: one `VersionedSchema` per entry (its type name,
    /// `major.minor.patch`, and the stored properties of its nested `@Model class Note`), then the
    /// `SchemaMigrationPlan` `Plan` listing every schema, with `stages` written as given.
    package static func swiftData(_ schemas: [(name: String, version: String, note: String)], stages: String) -> RuleExample.File {
        var text = "import SwiftData\n"
        for schema in schemas {
            text += "enum \(schema.name): VersionedSchema {\n"
                + "    static let versionIdentifier = Schema.Version(\(schema.version.split(separator: ".").joined(separator: ", ")))\n"
                + "    static var models: [any PersistentModel.Type] { [Note.self] }\n"
                + "    @Model final class Note {\n"
                + schema.note.split(separator: "\n").map { "        \($0)\n" }.joined()
                + "    }\n}\n"
        }
        text += "enum Plan: SchemaMigrationPlan {\n"
            + "    static var schemas: [any VersionedSchema.Type] { [\(schemas.map { "\($0.name).self" }.joined(separator: ", "))] }\n"
            + "    static var stages: [MigrationStage] { [\(stages)] }\n}\n"
        return RuleExample.File("Models.swift", text)
    }
}

import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation
import GRDB

/// A worked example of a finding about the input files rather than the chain's shape or a step's
/// classification: a small project folder (a spec, model `contents`, a mapping model, a
/// `.chainplan.yml`, a `chain.lock`) and, for dry-run codes, a store written by the fixture writer
/// and changed by SQL. `chainplan rules CPnnn` prints and runs them; so does their test. Each runs
/// the command a user would (`validate`, or `dry-run` when there is a store) in a temporary folder.
public struct InputExample: Sendable, CustomStringConvertible {
    /// A file of the project folder, by its path relative to the folder.
    public struct File: Sendable, Hashable {
        public var path: String
        public var text: String

        public init(_ path: String, _ text: String) {
            self.path = path
            self.text = text
        }
    }

    /// The store of a dry run: `chainplan fixture --model-version V --rows N`, then `sql`; or, with
    /// `text`, a file that holds exactly that text.
    public struct Store: Sendable, Hashable {
        public var version: String?
        public var rows: Int
        public var sql: [String]
        public var text: String?
        /// The dry run's CP303 threshold, in MB (nil: the default).
        public var memoryLimitMB: Int?
        public var simulate: Bool

        public static func fixture(_ version: String, rows: Int, sql: [String] = [], memoryLimitMB: Int? = nil, simulate: Bool = true) -> Store {
            Store(version: version, rows: rows, sql: sql, text: nil, memoryLimitMB: memoryLimitMB, simulate: simulate)
        }

        public static func file(_ text: String) -> Store {
            Store(version: nil, rows: 0, sql: [], text: text, memoryLimitMB: nil, simulate: false)
        }
    }

    public var title: String
    /// The project folder; the spec is `chain.json`.
    public var files: [File]
    /// The folder as it was when `chainplan lock` ran: these files are written, the lock is made,
    /// then they are removed and `files` written (lock codes).
    public var lockedFiles: [File]?
    public var store: Store?
    /// The input given to the command: `chain.json`, or the bundle itself.
    public var input: String
    /// How many findings of the rule's code the run raises (0: the example must not trigger).
    public var expected: Int
    /// Runs `chainplan passes` on this step instead of `validate` (multi-pass codes).
    public var passes: StepKey?
    /// Runs `chainplan stage --write-models` instead of `validate` (it writes into the folder).
    public var writesModels = false
    /// Runs `chainplan stage` instead of `validate` (the stage plan's findings).
    public var plansStages = false

    public init(_ title: String, files: [File], lockedFiles: [File]? = nil, store: Store? = nil, input: String = "chain.json", passes: StepKey? = nil,
                writesModels: Bool = false, plansStages: Bool = false, expected: Int) {
        self.title = title
        self.writesModels = writesModels
        self.plansStages = plansStages
        self.input = input
        self.files = files
        self.lockedFiles = lockedFiles
        self.store = store
        self.passes = passes
        self.expected = expected
    }

    public var description: String { title }

    /// The input as shown by `chainplan rules`: every file with its text, then how the lock and
    /// the store were made.
    public var shownInput: String {
        var out: [String] = []
        func show(_ file: File) {
            out.append("\(file.path):")
            out += file.text.trimmingCharacters(in: .newlines).split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
        }
        if let lockedFiles {
            out.append("chain.lock: written by 'chainplan lock' when the folder held:")
            for file in lockedFiles { show(file) }
            let now = Set(files.map(\.path))
            let deleted = lockedFiles.map(\.path).filter { !now.contains($0) }
            let changed = files.filter { !lockedFiles.contains($0) }
            out.append("then" + (deleted.isEmpty ? "" : " \(deleted.joined(separator: ", ")) deleted") + (changed.isEmpty ? "" : (deleted.isEmpty ? "" : " and") + " changed to") + ":")
            changed.forEach(show)
        } else {
            files.forEach(show)
        }
        if writesModels {
            out.append("run: chainplan stage \(input) --write-models")
        } else if plansStages {
            out.append("run: chainplan stage \(input)")
        } else if let passes, store == nil {
            out.append("run: chainplan passes \(input) \(passes.from) \(passes.to)")
        } else if passes == nil, input != "chain.json" {
            out.append("run: chainplan validate \(input)")
        }
        if let store {
            if let text = store.text {
                out.append("store.sqlite: a file holding \(text.debugDescription)")
            } else {
                out.append("store.sqlite: chainplan fixture --model-version \(store.version ?? "?") --rows \(store.rows)"
                    + (store.sql.isEmpty ? "" : ", then: " + store.sql.joined(separator: "; ")))
            }
            if let passes {
                out.append("run: chainplan passes \(input) \(passes.from) \(passes.to) --store store.sqlite")
            } else {
                out.append("run: chainplan dry-run \(input == "chain.json" ? "" : "\(input) ")--store store.sqlite" + (store.memoryLimitMB.map { " --memory-limit \($0)" } ?? "")
                    + (store.simulate ? "" : " --no-simulate"))
            }
        }
        return out.joined(separator: "\n")
    }

    /// The example itself could not be set up (a folder or store not written, a fixture version
    /// the bundle lacks): a fault of the example or the machine, never a finding about the input.
    public struct HarnessFailure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// Writes the folder to a private temporary directory, runs the real pipeline on it (and
    /// removes it): every finding, with paths relative to the folder. Throws when the example
    /// cannot be set up, rather than reporting that as the user's CP111.
    public func run() throws(HarnessFailure) -> [Diagnostic] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chainplan-example-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var options = PlanOptions()
            options.baseDirectory = folder
            let planner = ChainPlanner(options: options)
            let spec = folder.appendingPathComponent(input)
            if let lockedFiles {
                try write(lockedFiles, in: folder)
                guard let lock = planner.lock(inputAt: spec, versions: nil).lock else {
                    throw HarnessFailure(description: "the example's locked folder has no readable bundle")
                }
                try Data(lock.text.utf8).write(to: folder.appendingPathComponent(ChainLock.fileName))
                for file in lockedFiles {
                    let url = folder.appendingPathComponent(file.path)
                    try FileManager.default.removeItem(at: url)
                    // A deleted version leaves no empty folder behind.
                    let parent = url.deletingLastPathComponent()
                    if parent.path != folder.path, (try? FileManager.default.contentsOfDirectory(atPath: parent.path))?.isEmpty == true {
                        try FileManager.default.removeItem(at: parent)
                    }
                }
            }
            try write(files, in: folder)
            if writesModels {
                let outcome = planner.stagePlan(inputAt: spec, identities: { _ in nil })
                guard let plan = outcome.plan, let bundle = outcome.bundleURL else { return outcome.report.diagnostics }
                switch StageModelWriter.prepare((plan.decompositions ?? []).filter { !$0.intermediates.isEmpty }, bundle: bundle) {
                case .failure(let refusal): return plan.findings + refusal.findings
                case .success(let versions):
                    _ = try StageModelWriter.write(versions, bundle: bundle)
                    return plan.findings
                }
            }
            if plansStages {
                let outcome = planner.stagePlan(inputAt: spec, identities: { _ in nil }, computingIdentities: true)
                return outcome.plan?.findings ?? outcome.report.diagnostics
            }
            if let passes, store == nil {
                switch planner.passes(inputAt: spec, from: passes.from, to: passes.to, storeAt: nil, maxMemoryBytes: nil) {
                case .success(let report): return report.diagnostics
                case .failure(let failure): return failure.diagnostics
                }
            }
            guard let store else { return planner.plan(inputAt: spec, configuration: nil).diagnostics }
            let storeURL = folder.appendingPathComponent("store.sqlite")
            if let text = store.text {
                try Data(text.utf8).write(to: storeURL)
            } else if let version = store.version {
                guard let model = planner.bundle(inputAt: spec)?.version(named: version)?.model else {
                    throw HarnessFailure(description: "the example's bundle has no readable version '\(version)'")
                }
                _ = try StoreFixtureWriter(rowsPerEntity: store.rows).write(model: model, versionName: version, to: storeURL.path)
                if !store.sql.isEmpty {
                    let queue = try DatabaseQueue(path: storeURL.path)
                    try queue.write { db in for statement in store.sql { try db.execute(sql: statement) } }
                    try queue.close()
                }
            }
            if let passes {
                switch planner.passes(inputAt: spec, from: passes.from, to: passes.to, storeAt: storeURL.path, maxMemoryBytes: nil, lockTimeout: 0) {
                case .success(let report): return report.diagnostics
                case .failure(let failure): return failure.diagnostics
                }
            }
            var dryRun = DryRunOptions()
            dryRun.memoryLimitBytes = store.memoryLimitMB.map { $0 << 20 }
            dryRun.simulate = store.simulate
            dryRun.lockTimeout = 0
            return planner.dryRun(inputAt: spec, storeAt: storeURL.path, options: dryRun, configuration: nil).diagnostics
        } catch let failure as HarnessFailure {
            throw failure
        } catch {
            throw HarnessFailure(description: "the example could not be written: \(error)")
        }
    }

    private func write(_ files: [File], in folder: URL) throws {
        for file in files {
            let url = folder.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.text.utf8).write(to: url)
        }
    }
}

/// The examples of each code about input files, the rule configuration, stores and locks.
public enum InputExamples {
    /// A model version's `contents` with these `<entity>` elements.
    static func contents(_ entities: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model type=\"com.apple.IDECoreDataModeler.DataModel\">\n\(entities)\n</model>\n"
    }

    static func version(_ name: String, _ entities: String) -> InputExample.File {
        InputExample.File("Model.xcdatamodeld/\(name).xcdatamodel/contents", contents(entities))
    }

    static func current(_ name: String) -> InputExample.File {
        InputExample.File("Model.xcdatamodeld/.xccurrentversion", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>\(name).xcdatamodel</string></dict></plist>
            """)
    }

    static func spec(_ versions: [String], extra: String = "") -> InputExample.File {
        InputExample.File("chain.json", "{\"chain\": [\(versions.map { "\"\($0)\"" }.joined(separator: ", "))], \"model\": \"Model.xcdatamodeld\"\(extra)}")
    }

    static let note = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#
    static let noteWithBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    static let noteWithNumericTitle = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#
    static let numericTitleWithBody = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/><attribute name="body" optional="YES" attributeType="String"/></entity>"#
    static let person = #"<entity name="Person"><attribute name="age" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/></entity>"#
    static let personAgeRangeWithName = #"<entity name="Person"><attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150" usesScalarValueType="YES"/><attribute name="name" optional="YES" attributeType="String"/></entity>"#

    /// Xcode's dialect (one element per line): `--write-models` edits the files line by line.
    static let aircraft = """
            <entity name="Aircraft" representedClassName="Aircraft" syncable="YES">
                <attribute name="flightData" optional="YES" attributeType="Binary"/>
                <attribute name="name" optional="YES" attributeType="String"/>
            </entity>
        """
    static let aircraftWithFlightData = """
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
    static func project(_ versions: [String], extra: String = "") -> [InputExample.File] {
        let names = versions.indices.map { "V\($0 + 1)" }
        return [spec(names, extra: extra)] + zip(names, versions).map { version($0, $1) } + [current(names.last ?? "V1")]
    }

    /// A mapping model's `xcmapping.xml` that names its source and destination model versions but
    /// embeds no model snapshots.
    static func mappingModel(from source: String, to destination: String) -> String {
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
    static func passMappingModel(_ name: String, from source: String, to destination: String, _ mappings: [(String, String)]) -> InputExample.File {
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
        return InputExample.File("\(name).xcmappingmodel/xcmapping.xml", text)
    }

    static let noteTagFolder = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity><entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    static let noteTag = #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
    /// `Note.folder` to `Folder`, required or optional, `Folder` with or without a uniqueness constraint on `name`.
    static func noteInFolder(required: Bool, uniqueName: Bool) -> String {
        let constraint = uniqueName ? #"<uniquenessConstraints><uniquenessConstraint><constraint value="name"/></uniquenessConstraint></uniquenessConstraints>"# : ""
        return #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><relationship name="folder" optional="\#(required ? "NO" : "YES")" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/></entity><entity name="Folder"><attribute name="name" optional="YES" attributeType="String"/>\#(constraint)</entity>"#
    }

    public static func examples(for code: DiagnosticCode) -> [InputExample] {
        switch code {
        case .unmappedEntity: [
            InputExample("passes StepOne (Note) and StepTwo (Tag) of a step that keeps Note, Tag and Folder", files: project([noteTagFolder, noteTagFolder])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")])],
                expected: 1),
            InputExample("StepThree maps Folder", files: project([noteTagFolder, noteTagFolder])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")]),
                   passMappingModel("StepThree", from: "V1", to: "V2", [("Folder", "Folder")])],
                expected: 0),
        ]
        case .entityMappedTwice: [
            InputExample("StepOne and StepTwo both copy Note into Note", files: project([noteTag, noteTag])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note"), ("Tag", "Tag")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 1),
            InputExample("each entity in one pass", files: project([noteTag, noteTag])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")])],
                expected: 0),
        ]
        case .mandatoryTargetInLaterPass: [
            InputExample("Note requires its Folder, which the later pass creates", files: project([noteInFolder(required: true, uniqueName: true), noteInFolder(required: true, uniqueName: true)])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Folder", "Folder")])],
                expected: 1),
            InputExample("Folder in the first pass", files: project([noteInFolder(required: true, uniqueName: true), noteInFolder(required: true, uniqueName: true)])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Folder", "Folder")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 0),
        ]
        case .crossPassWithoutKey: [
            InputExample("Note.folder set in the second pass, Folder has no unique key", files: project([noteInFolder(required: false, uniqueName: false), noteInFolder(required: false, uniqueName: false)])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Folder", "Folder")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 1),
            InputExample("Folder's name is unique: the second pass fetches it by name", files: project([noteInFolder(required: false, uniqueName: true), noteInFolder(required: false, uniqueName: true)])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Folder", "Folder")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Note", "Note")])],
                expected: 0),
        ]
        case .partialMappingModel: [
            InputExample("StepOne (Note) and StepTwo (Tag) each map part of the step", files: project([noteTag, noteTag])
                + [passMappingModel("StepOne", from: "V1", to: "V2", [("Note", "Note")]), passMappingModel("StepTwo", from: "V1", to: "V2", [("Tag", "Tag")])],
                expected: 2),
            InputExample("one mapping model maps both", files: project([noteTag, noteTag])
                + [passMappingModel("NotesToNotes", from: "V1", to: "V2", [("Note", "Note"), ("Tag", "Tag")])],
                expected: 0),
        ]
        case .noPassesNeeded: [
            InputExample("passes for V1 → V2, which adds an optional attribute (inferred in SQL in place)", files: project([note, noteWithBody]),
                         passes: StepKey(from: "V1", to: "V2"), expected: 1),
            InputExample("V2 changes 'title' from String to Integer 64 (heavyweight)", files: project([note, noteWithNumericTitle]),
                         passes: StepKey(from: "V1", to: "V2"), expected: 0),
        ]
        case .noEntityMappings: [
            InputExample("V2's entities share one renaming identifier (not inferable) and none has Note's key", files: project([note,
                #"<entity name="Memo" elementID="Paper"><attribute name="text" optional="YES" attributeType="String"/></entity><entity name="Card" elementID="Paper"><attribute name="text" optional="YES" attributeType="String"/></entity>"#]),
                         passes: StepKey(from: "V1", to: "V2"), expected: 1),
            InputExample("V2 keeps Note", files: project([note, noteWithNumericTitle]), passes: StepKey(from: "V1", to: "V2"), expected: 0),
        ]
        case .passStoreNotAtSource: [
            InputExample("passes for V1 → V2 sized by a store written for V2", files: project([note, noteWithNumericTitle]),
                         store: .fixture("V2", rows: 3), passes: StepKey(from: "V1", to: "V2"), expected: 1),
            InputExample("the store is at V1, the step's source", files: project([note, noteWithNumericTitle]),
                         store: .fixture("V1", rows: 3), passes: StepKey(from: "V1", to: "V2"), expected: 0),
        ]
        case .unreadableSpec: [
            InputExample("a number where a version name belongs", files: [InputExample.File("chain.json", #"["V1", 2]"#)], expected: 1),
            InputExample("version names are strings", files: [InputExample.File("chain.json", #"["V1", "V2"]"#)], expected: 0),
        ]
        case .inferredOrder: [
            InputExample("the bundle given instead of a spec", files: Array(project([note, noteWithBody]).dropFirst()), input: "Model.xcdatamodeld", expected: 1),
            InputExample("a spec gives the order", files: project([note, noteWithBody]), expected: 0),
        ]
        case .stageHintNotAStep: [
            InputExample("'V1 -> V3' under stages, but stores migrate V1 → V2 → V3",
                         files: project([note, noteWithBody, note], extra: #", "stages": ["V1 -> V3"]"#), plansStages: true, expected: 1),
            InputExample("'V1 -> V2' under stages, and 'V2 -> V9', a version the chain does not have",
                         files: project([note, noteWithBody, note], extra: #", "stages": ["V1 -> V2", "V2 -> V9"]"#), plansStages: true, expected: 1),
            InputExample("'V1 -> V2' under stages: a step, run as a custom stage",
                         files: project([note, noteWithBody, note], extra: #", "stages": ["V1 -> V2"]"#), plansStages: true, expected: 0),
        ]
        case .intermediateVersionExists: [
            InputExample("V2 moves 'flightData' into a new entity; 'V1 step 1', the decomposition's intermediate, is in the bundle already",
                         files: project([aircraft, aircraftWithFlightData]) + [version("V1 step 1", aircraftWithFlightData)], writesModels: true, expected: 1),
            InputExample("the intermediate version is not there yet: it is written", files: project([aircraft, aircraftWithFlightData]), writesModels: true, expected: 0),
        ]
        case .unreadableModelBundle: [
            InputExample("the spec's model bundle does not exist", files: [spec(["V1", "V2"])], expected: 1),
            InputExample("the bundle is there", files: project([note, noteWithBody]), expected: 0),
        ]
        case .legacyModelFormat: [
            InputExample("a version saved in the pre-Xcode-4 binary format", files: [
                spec(["V1", "V2"]), InputExample.File("Model.xcdatamodeld/V1.xcdatamodel/elements", "(binary keyed archive)"),
                version("V2", noteWithBody), current("V2"),
            ], expected: 1),
            InputExample("every version has 'contents'", files: project([note, noteWithBody]), expected: 0),
        ]
        case .noCurrentVersion: [
            InputExample("two versions and no .xccurrentversion", files: Array(project([note, noteWithBody]).dropLast()), expected: 1),
            InputExample(".xccurrentversion names V2", files: project([note, noteWithBody]), expected: 0),
        ]
        case .missingCurrentVersion: [
            InputExample(".xccurrentversion names a version the bundle does not have",
                         files: Array(project([note, noteWithBody]).dropLast()) + [current("V3")], expected: 1),
            InputExample(".xccurrentversion names V2", files: project([note, noteWithBody]), expected: 0),
        ]
        case .duplicateModelName: [
            InputExample("an attribute defined twice", files: project([
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/><attribute name="title" optional="YES" attributeType="Date"/></entity>"#,
            ]), expected: 1),
            InputExample("distinct names", files: project([noteWithBody]), expected: 0),
        ]
        case .unknownEntityReference: [
            InputExample("a relationship to an entity that does not exist", files: project([
                #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity>"#,
            ]), expected: 1),
            InputExample("the destination entity exists", files: project([
                #"<entity name="Note"><relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag"/></entity><entity name="Tag"><attribute name="name" optional="YES" attributeType="String"/></entity>"#,
            ]), expected: 0),
        ]
        case .parentEntityCycle: [
            InputExample("two entities each the other's parent", files: project([
                #"<entity name="Car" parentEntity="Vehicle"/><entity name="Vehicle" parentEntity="Car"/>"#,
            ]), expected: 1),
            InputExample("a parent without a parent", files: project([#"<entity name="Car" parentEntity="Vehicle"/><entity name="Vehicle"/>"#]), expected: 0),
        ]
        case .malformedModelXML: [
            InputExample("an element left open", files: project([#"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/>"#]), expected: 1),
            InputExample("well-formed", files: project([note]), expected: 0),
        ]
        case .unreadableMappingModel: [
            InputExample("a mapping model whose xcmapping.xml is not XML", files: project([note, noteWithBody])
                + [InputExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", "V1 to V2, see the wiki")], expected: 1),
            InputExample("no mapping model", files: project([note, noteWithBody]), expected: 0),
        ]
        case .unmatchedMappingModel: [
            InputExample("a mapping model for V1 → V3, which is not a step (the chain goes through V2)", files: project([note, noteWithBody, noteWithBody])
                + [InputExample.File("V1ToV3.xcmappingmodel/xcmapping.xml", mappingModel(from: "V1", to: "V3"))], expected: 1),
            InputExample("a mapping model for the step V1 → V2", files: project([note, noteWithBody, noteWithBody])
                + [InputExample.File("V1ToV2.xcmappingmodel/xcmapping.xml", mappingModel(from: "V1", to: "V2"))], expected: 0),
        ]
        case .unhashableModelVersion: [
            InputExample("V2 gives 'title' a type Core Data does not have, so its version hashes cannot be computed", files: project([note,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="Money"/></entity>"#]), expected: 1),
            InputExample("every attribute type is one of Core Data's", files: project([note, noteWithBody]), expected: 0),
        ]
        case .hashIdenticalVersions: [
            InputExample("V1 and V2 are the same model", files: project([note, note]), expected: 1),
            InputExample("V2 gives 'title' a renaming identifier, which the hash ignores (an error)", files: project([note,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" elementID="heading"/></entity>"#]), expected: 1),
            InputExample("V2 gives 'title' a default value, which only new objects get (a warning)", files: project([note,
                #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String" defaultValueString="Untitled"/></entity>"#]), expected: 1),
            InputExample("V2 adds an attribute", files: project([note, noteWithBody]), expected: 0),
        ]
        case .staleMappingModel: [
            InputExample("the spec assigns the V2 → V3 mapping model to V1 → V2", files: project([note, noteWithBody, noteWithNumericTitle],
                extra: #", "mappings": {"V1 -> V2": "V2ToV3.xcmappingmodel"}"#)
                + [InputExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", mappingModel(from: "V2", to: "V3"))], expected: 1),
            InputExample("assigned to the step it was made for", files: project([note, noteWithBody, noteWithNumericTitle],
                extra: #", "mappings": {"V2 -> V3": "V2ToV3.xcmappingmodel"}"#)
                + [InputExample.File("V2ToV3.xcmappingmodel/xcmapping.xml", mappingModel(from: "V2", to: "V3"))], expected: 0),
        ]
        case .invalidConfiguration: [
            InputExample("a code that does not exist", files: [InputExample.File("chain.json", #"["V1", "V2"]"#),
                                                             InputExample.File(".chainplan.yml", "rules:\n  CP999: off\n")], expected: 1),
            InputExample("a known code", files: [InputExample.File("chain.json", #"["V1", "V2"]"#),
                                               InputExample.File(".chainplan.yml", "rules:\n  CP209: off\n")], expected: 0),
        ]
        case .unreadableStore: [
            InputExample("the store is not a SQLite database", files: project([note, noteWithBody]), store: .file("not a database"), expected: 1),
            InputExample("a store written for V1", files: project([note, noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ]
        case .unknownStoreVersion: [
            InputExample("the store's tables belong to no version", files: project([note, noteWithBody]),
                         store: .fixture("V1", rows: 3, sql: ["DROP TABLE ZNOTE", "DELETE FROM Z_PRIMARYKEY", "DELETE FROM Z_METADATA",
                                                              #"CREATE TABLE ZINVOICE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTOTAL FLOAT)"#]),
                         expected: 1),
            InputExample("a store written for V1", files: project([note, noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ]
        case .ambiguousStoreVersion: [
            InputExample("V1 and V2 are identical, so a V1 store matches both", files: project([note, note]), store: .fixture("V1", rows: 3), expected: 1),
            InputExample("V2 adds an attribute", files: project([note, noteWithBody]), store: .fixture("V1", rows: 3), expected: 0),
        ]
        case .heavyweightMemory: [
            InputExample("a heavyweight step over 80,000 rows (about 1.1 MB) with a 1 MB limit", files: project([note, numericTitleWithBody]),
                         store: .fixture("V1", rows: 80_000, memoryLimitMB: 1, simulate: false), expected: 1),
            InputExample("the same step with the default 100 MB limit", files: project([note, numericTitleWithBody]),
                         store: .fixture("V1", rows: 80_000, simulate: false), expected: 0),
        ]
        case .dataViolatesDestination: [
            InputExample("'age' gets the range 0…150 and a row holds 200", files: project([person, personAgeRangeWithName]),
                         store: .fixture("V1", rows: 3, sql: ["UPDATE ZPERSON SET ZAGE = 40", "UPDATE ZPERSON SET ZAGE = 200 WHERE Z_PK = 1"]), expected: 1),
            InputExample("every age is in the range", files: project([person, personAgeRangeWithName]),
                         store: .fixture("V1", rows: 3, sql: ["UPDATE ZPERSON SET ZAGE = 40"]), expected: 0),
        ]
        case .deferredColumnsMismatch: [
            InputExample("a column named _DEFERRED_ without Core Data's <32 hex digits>__<column> shape", files: project([noteWithBody, note]),
                         store: .fixture("V1", rows: 3, sql: [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_oops" VARCHAR"#]), expected: 1),
            InputExample("a V2 store whose removed ZBODY waits for finishDeferredLightweightMigration()", files: project([noteWithBody, note]),
                         store: .fixture("V2", rows: 3, sql: [#"ALTER TABLE ZNOTE ADD COLUMN "_DEFERRED_0123456789ABCDEF0123456789ABCDEF__ZBODY" VARCHAR"#]),
                         expected: 0),
        ]
        case .lockedVersionChanged: [
            InputExample("V1 gains an attribute after it was locked", files: project([noteWithBody, noteWithBody]),
                         lockedFiles: project([note, noteWithBody]), expected: 1),
            InputExample("V2, the target, is not locked and may change", files: project([note, noteWithNumericTitle]),
                         lockedFiles: project([note, noteWithBody]), expected: 0),
        ]
        case .lockedVersionMissing: [
            InputExample("V1 was locked and then deleted", files: [spec(["V2", "V3"]), version("V2", note), version("V3", noteWithBody), current("V3")],
                         lockedFiles: [spec(["V1", "V2", "V3"]), version("V1", note), version("V2", note), version("V3", noteWithBody), current("V3")],
                         expected: 1),
            InputExample("every locked version is still there", files: project([note, noteWithBody]), lockedFiles: project([note, noteWithBody]),
                         expected: 0),
        ]
        case .unclassifiedChain: [
            InputExample("a bare CoreStore array and no bundle under the spec's folder", files: [InputExample.File("chain.json", #"["V1", "V2"]"#)],
                         expected: 1),
            InputExample("a bare array beside the bundle that holds its versions",
                         files: [InputExample.File("chain.json", #"["V1", "V2"]"#), version("V1", note), version("V2", noteWithBody), current("V2")],
                         expected: 0),
        ]
        case .acceptanceNotApplied: [
            InputExample("V2 → V3 is accepted, but V3 is not locked",
                         files: project([note, noteWithBody, note], extra: #", "accept": {"V2 -> V3": "body was never shown"}"#),
                         lockedFiles: project([note, noteWithBody, note]), expected: 1),
            InputExample("V2 → V3 shipped (V1 to V3 locked while V4 was the target); its CP209 is accepted",
                         files: project([note, noteWithBody, note, note], extra: #", "accept": {"V2 -> V3": "body was never shown"}"#),
                         lockedFiles: project([note, noteWithBody, note, note]), expected: 0),
        ]
        case .unreadableLock: [
            InputExample("a lock line edited by hand", files: project([note, noteWithBody])
                + [InputExample.File("chain.lock", "version \"V1\" not-a-fingerprint\n")], expected: 1),
            InputExample("a lock written before Core Data's hashes", files: project([note, noteWithBody])
                + [InputExample.File("chain.lock", "version \"V1\" 0123456789abcdef\n")], expected: 1),
            InputExample("no lock", files: project([note, noteWithBody]), expected: 0),
        ]
        default: []
        }
    }
}

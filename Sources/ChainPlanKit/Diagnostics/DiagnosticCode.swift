/// Every code chainplan can report. The raw value is the stable id (`CP104`) used in
/// output, SARIF rule ids and `.chainplan.yml`.
public enum DiagnosticCode: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    // Spec and graph
    case cp100 = "CP100"
    case cp101 = "CP101"
    case cp102 = "CP102"
    case cp103 = "CP103"
    case cp104 = "CP104"
    case cp105 = "CP105"
    case cp106 = "CP106"
    case cp107 = "CP107"
    case cp108 = "CP108"
    case cp109 = "CP109"
    case cp110 = "CP110"
    // Model bundles and mapping models
    case cp111 = "CP111"
    case cp112 = "CP112"
    case cp113 = "CP113"
    case cp114 = "CP114"
    case cp115 = "CP115"
    case cp116 = "CP116"
    case cp117 = "CP117"
    case cp118 = "CP118"
    case cp120 = "CP120"
    case cp121 = "CP121"
    case cp130 = "CP130"
    // Classification
    case cp201 = "CP201"
    case cp202 = "CP202"
    case cp203 = "CP203"
    case cp204 = "CP204"
    case cp205 = "CP205"
    case cp206 = "CP206"
    case cp207 = "CP207"
    case cp208 = "CP208"
    case cp209 = "CP209"
    case cp210 = "CP210"
    case cp211 = "CP211"
    // Stores
    case cp300 = "CP300"
    case cp301 = "CP301"
    case cp302 = "CP302"
    case cp303 = "CP303"
    case cp304 = "CP304"
    // Locks
    case cp401 = "CP401"
    case cp402 = "CP402"
    case cp403 = "CP403"
    // Staged migration
    case cp501 = "CP501"
    case cp502 = "CP502"
    case cp503 = "CP503"
    case cp504 = "CP504"
    case cp505 = "CP505"
    case cp506 = "CP506"
    case cp507 = "CP507"
    case cp508 = "CP508"
    case cp509 = "CP509"
    case cp510 = "CP510"
    case cp511 = "CP511"
    case cp512 = "CP512"
    case cp513 = "CP513"

    public var rule: Rule { Rule.catalogue[self]! }

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a code means: its name, default severity and a description for `chainplan rules`.
public struct Rule: Sendable, Hashable {
    public let code: DiagnosticCode
    /// PascalCase name, used as the SARIF rule name.
    public let name: String
    /// A short sentence (no trailing period) for lists.
    public let summary: String
    /// Why it matters and what to do, for `chainplan rules CPnnn` and SARIF help.
    public let help: String
    public let defaultSeverity: Severity
    /// When true, an error with this code means the input could not be used (exit 2).
    public let unusableInput: Bool

    public static let catalogue: [DiagnosticCode: Rule] = {
        var table: [DiagnosticCode: Rule] = [:]
        for rule in all { table[rule.code] = rule }
        return table
    }()

    // swiftlint:disable line_length
    public static let all: [Rule] = [
        Rule(code: .cp100, name: "UnreadableSpec", summary: "The chain spec cannot be read or parsed",
             help: "The file is missing, not a regular file, not UTF-8, too large, too deeply nested, not valid JSON or YAML, or not one of the supported forms (array, version tree, full form with a `chain` key, or null/[]/{}). Fix the file at the given location.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp101, name: "DuplicateVersionInArray", summary: "A version appears more than once in an array chain",
             help: "An array chain lists each version once, oldest first. A repeated version makes the chain loop or gives a version two successors; CoreStore asserts in debug builds and silently misbehaves in release builds.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp102, name: "DuplicateSourceVersion", summary: "A source version appears twice as a key of a version tree",
             help: "Each source version migrates to exactly one destination. A second key for the same version is ambiguous; JSON and YAML parsers silently keep one of them.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp103, name: "SelfLoop", summary: "A version migrates to itself",
             help: "`\"A\": \"A\"` is a no-op that CoreStore silently ignores; the version then has no way forward. Point it at its real successor or remove the entry.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp104, name: "MigrationCycle", summary: "The chain contains a cycle",
             help: "Versions in a cycle never reach the target: a store at any of them migrates forever or fails. Each strongly connected component is reported once with its members in order.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp105, name: "UnknownVersion", summary: "A chain version is not in the model bundle",
             help: "Every version the chain names must exist as a `.xcdatamodel` in the bundle; otherwise Core Data cannot load it and migration fails at runtime (CoreStore: mappingModelNotFound). Check the spelling against the hint.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp106, name: "NoSingleTarget", summary: "The chain has no single target version",
             help: "A non-empty chain must end in exactly one leaf (the version every store migrates to), or name it with `target`. Several leaves, or none (everything in cycles), leave the target ambiguous.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp107, name: "VersionMissingFromChain", summary: "A model version is not in the chain",
             help: "A store created by this model version has no migration path: the app fails to open it. Add the version to the chain, or delete the version from the bundle if it never shipped.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp108, name: "UnreachableTarget", summary: "A start version has no path to the target",
             help: "Following the chain from this version ends somewhere other than the target (a dead end) or loops. A store at this version cannot be migrated.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp109, name: "TargetNotCurrentVersion", summary: "The chain's target is not the bundle's current version",
             help: "CoreStore bypasses the bundle's current version (`.xccurrentversion`) when a chain is given, so the app runs on the chain's leaf. Usually one of the two was not updated.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp110, name: "InferredOrder", summary: "The chain order was inferred from version names",
             help: "No spec was given, so chainplan ordered the bundle's versions by a natural version sort. Review the order and commit a spec (`chainplan init`).",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp111, name: "UnreadableModelBundle", summary: "The model bundle cannot be read",
             help: "The `.xcdatamodeld` is missing, not a directory, holds no versions, or lies outside the spec's folder without `--allow-outside`.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp112, name: "LegacyModelFormat", summary: "A model version uses the pre-Xcode-4 binary format",
             help: "The version folder holds binary `elements`/`layout` files and no `contents` XML. chainplan decodes the `elements` archive when it can (its findings then have no line numbers); when it cannot, steps touching the version cannot be classified. Open and save the model in a current Xcode to convert it.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp113, name: "NoCurrentVersion", summary: "The bundle does not say which version is current",
             help: "`.xccurrentversion` is missing or empty and the bundle has several versions. Xcode picks one silently; set the current version in Xcode's model inspector.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp114, name: "MissingCurrentVersion", summary: "`.xccurrentversion` names a version that does not exist",
             help: "The file names a `.xcdatamodel` folder that is not in the bundle; momc fails to compile it.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp115, name: "DuplicateModelName", summary: "An entity or property name is defined twice",
             help: "Xcode refuses a model with two entities of one name, or two properties of one name in an entity (inherited ones included).",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp116, name: "UnknownEntityReference", summary: "A relationship or parent names an entity that does not exist",
             help: "A relationship's destination or inverse entity, or an entity's parent, is not defined in the model version; momc fails to compile it.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp117, name: "ParentEntityCycle", summary: "Entity inheritance forms a cycle",
             help: "An entity is (indirectly) its own parent; no model can be built from it.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp118, name: "MalformedModelXML", summary: "A model's `contents` is not a valid Core Data model document",
             help: "The XML is truncated, not UTF-8, has the wrong root element, declares a DTD or entities (refused for safety), misses required attributes, or exceeds size limits.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp120, name: "UnreadableMappingModel", summary: "A mapping model cannot be read",
             help: "The `.xcmappingmodel` has no readable `xcmapping.xml`, or its embedded model snapshots cannot be decoded.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp121, name: "UnmatchedMappingModel", summary: "A mapping model matches no step of the chain",
             help: "Neither its embedded models nor its stated paths correspond to a step. It is dead weight, or the step it was made for is missing from the chain.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp130, name: "InvalidConfiguration", summary: "The rule configuration is invalid",
             help: "`.chainplan.yml` names an unknown code, a severity other than off/note/warning/error, or a bad threshold.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp201, name: "NotInferable", summary: "A step cannot be inferred and has no mapping model",
             help: "Core Data cannot infer a mapping for this step and no mapping model covers it: the migration fails at runtime (CoreStore throws mappingModelNotFound). Add a mapping model for the step, or split it into inferable steps.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp202, name: "RenameWithoutIdentifier", summary: "A likely rename has no renaming identifier",
             help: "An entity or property was removed and one of the same kind added in the same step. Core Data infers this as drop + add and the data is lost. Set the renaming identifier (Xcode: Versioning > Renaming ID) to the old name.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp203, name: "NonOptionalWithoutDefault", summary: "An attribute becomes non-optional without a default value",
             help: "A new non-optional attribute, or an optional one made non-optional, needs a default value for rows that have none; without it Core Data cannot infer the mapping.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp204, name: "AttributeTypeChange", summary: "An attribute's type changes",
             help: "Numeric type changes infer in shipped apps (observed); other type changes are not documented as inferable and are treated as needing a mapping model (conservative).",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp205, name: "HierarchyMerge", summary: "Two entity hierarchies are merged",
             help: "Entities without a common parent in the source cannot share one in the destination: Apple documents this as not inferable.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp206, name: "MappingModelOnInferableStep", summary: "A mapping model covers a step that would infer anyway",
             help: "Legitimate when the mapping transforms data; otherwise the mapping model forces a slower heavyweight migration.",
             defaultSeverity: .note, unusableInput: false),
        Rule(code: .cp207, name: "DirectJumpFails", summary: "The direct jump from a start to the target is not inferable or loses data",
             help: "Every chained step works, but Core Data without a chain (or lightweight-only staged migration) infers one mapping from the store's version straight to the target, and that mapping fails or drops data.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp208, name: "StaleMappingModel", summary: "A mapping model's embedded model no longer equals the version it names",
             help: "The model was edited after the mapping model was made (its embedded snapshot no longer equals the version), or the spec's `mappings` assigns it to a step it was not made for. Core Data matches mapping models by entity hashes and will silently not use it. Recreate the mapping model, or assign it to its own step.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp209, name: "DataRemoved", summary: "A step drops an entity or attribute",
             help: "The data stored in it is deleted by the migration. Intended or not, a reviewer should know.",
             defaultSeverity: .note, unusableInput: false),
        Rule(code: .cp210, name: "UndocumentedChange", summary: "A change whose inference behaviour is undocumented",
             help: "For example a to-many relationship becoming to-one. Core Data may or may not infer it; test the migration on a device.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp211, name: "PropertyKindChange", summary: "An attribute is replaced by a relationship or entity (or the reverse)",
             help: "For example a `categoria` string attribute becoming a `Categoria` entity. Core Data infers this as drop + add: the step migrates, but the old values are deleted. Move the data with a mapping model or a custom migration stage.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp300, name: "UnreadableStore", summary: "The store cannot be read",
             help: "The path is not a SQLite database, is empty, truncated, encrypted, a directory, locked beyond the timeout, or not a Core Data store (no Z_METADATA).",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp301, name: "UnknownStoreVersion", summary: "No model version matches the store",
             help: "Neither hashes, identifiers nor structure identify the store's model version. The closest version and the differences are named.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp302, name: "AmbiguousStoreVersion", summary: "Several model versions match the store equally",
             help: "The evidence does not single out one version. Supply the compiled model (`--momd`) so the entity hashes decide.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp303, name: "HeavyweightMemory", summary: "A heavyweight step would load more than the memory threshold",
             help: "A heavyweight migration loads every instance of the mapped entities. Split the mapping model into several passes by entity to bound memory.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp304, name: "DataViolatesDestination", summary: "Stored data violates the destination model",
             help: "Rows would fail validation after migration: NULLs in attributes that become non-optional, duplicates under a new uniqueness constraint, values outside new min/max, empty required to-one relationships.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp401, name: "LockedVersionChanged", summary: "A shipped (locked) model version was edited",
             help: "Its fingerprint differs from `chain.lock`. Stores in users' hands were made by the original; an edited version no longer matches them.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp402, name: "LockedVersionMissing", summary: "The lock names a version the bundle no longer has",
             help: "A shipped version was deleted or renamed; stores at that version can no longer be opened.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp403, name: "UnreadableLock", summary: "The lock file cannot be read",
             help: "`chain.lock` beside the spec is not a file chainplan wrote, or was edited by hand. Regenerate it with `chainplan lock` from the commit that shipped.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .cp501, name: "DuplicateChecksumInStage", summary: "A lightweight stage lists a checksum twice",
             help: "`NSLightweightMigrationStage`'s initializer throws \"Duplicate version checksums detected.\", an Objective-C exception Swift cannot catch: the app crashes at launch. List each version's checksum once.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp502, name: "ChecksumAcrossStages", summary: "A checksum is in two stages where Core Data allows one",
             help: "A checksum may be one custom stage's current model and one custom stage's next model, and then in no lightweight stage; a lightweight checksum may be in one lightweight stage only. Otherwise the manager's initializer throws \"Duplicate version checksums across stages detected.\" and the app crashes at launch.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp503, name: "EqualCustomEndpoints", summary: "A custom stage migrates a model to itself",
             help: "`NSCustomMigrationStage`'s initializer throws \"The current model reference and the next model reference cannot be equal.\" (often two versions whose checksums are equal). Drop the stage or move its handlers to a stage between different models.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp504, name: "AppModelNotStaged", summary: "The app's model is in no stage",
             help: "Staged migration's pre-flight fails every store with 134504 \"Cannot use staged migration with an unknown coordinator model version.\" Add the current version's checksum to the last stage (usually after adding a new model version and forgetting the stage list).",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp505, name: "VersionNotStaged", summary: "A shipped version is in no stage",
             help: "Stores created by this version fail with 134504 \"Cannot use staged migration with an unknown model version.\" Never delete the store on 134504: add the version's checksum to a stage.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp506, name: "StaleChecksum", summary: "A stage names a checksum of no model version",
             help: "The model was edited after the checksum was copied (or the constant was mistyped). Custom stage references crash the manager's initializer; lightweight checksums fail at load with 134504. Regenerate the constants from the compiled model (`chainplan stage --format swift`).",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp507, name: "BackwardStages", summary: "The stages migrate some store backwards",
             help: "The app model's stage comes before the store's, or precedes it in the last lightweight stage: Core Data refuses with 134506 \"A store file cannot be migrated backwards with staged migration.\" List stages oldest first.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp508, name: "StagesEndOffAppModel", summary: "Some store does not end on the app model",
             help: "After the stages run the store is re-added; when it is still not at the app model, iOS 26.1 fails with 134100 \"Incompatible metadata after migration because the store version hashes didn't migrate.\" (older systems migrated again, so short plans seemed to work). End the stages exactly on the app model.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp509, name: "HandlerOffCurrentModel", summary: "A willMigrate handler runs while the store is not at its stage's current model",
             help: "`willMigrateHandler` opens the store at the stage's current model with migration off: a store elsewhere fails with 134100 \"The model used to open the store is incompatible with the one used to create the store\". Add stages so every store reaches the current model first.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp510, name: "StageJumpFails", summary: "A jump the staged migration executes cannot be migrated",
             help: "Lightweight stages do not step: a run of them is one jump from the store's model to the run's target, and Core Data must infer (or find a mapping model for) that jump; otherwise 134140 \"Can't find or automatically infer mapping model for migration\". Insert a custom stage (handler-less is enough) so the store steps.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .cp511, name: "StageJumpDropsData", summary: "A jump the staged migration executes drops data that stepping keeps",
             help: "The jump's single inferred mapping loses a value (for example a rename whose identifiers chain step by step but not across the jump). Insert a handler-less custom stage to force stepping.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp512, name: "IdenticalChecksums", summary: "Two versions have the same checksum",
             help: "Core Data cannot tell them apart; a stage list may name the checksum once only (twice crashes the initializer). The plan lists it once. They still differ in what hashes ignore (renaming identifiers, defaults), which can change inference.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .cp513, name: "StageCycle", summary: "Custom stages form a cycle",
             help: "The manager accepts cycles, but a store on one migrates away from its model and back. Usually two stages were written in the wrong direction.",
             defaultSeverity: .warning, unusableInput: false),
    ]
    // swiftlint:enable line_length
}

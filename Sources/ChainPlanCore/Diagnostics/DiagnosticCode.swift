/// Every code chainplan can report. The raw value is the stable id (`CP104`) used in
/// output, SARIF rule ids and `.chainplan.yml`.
public enum DiagnosticCode: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    // Spec and graph
    case unreadableSpec = "CP100"
    case duplicateVersionInArray = "CP101"
    case duplicateSourceVersion = "CP102"
    case selfLoop = "CP103"
    case migrationCycle = "CP104"
    case unknownVersion = "CP105"
    case noSingleTarget = "CP106"
    case versionMissingFromChain = "CP107"
    case unreachableTarget = "CP108"
    case targetNotCurrentVersion = "CP109"
    case inferredOrder = "CP110"
    // Model bundles and mapping models
    case unreadableModelBundle = "CP111"
    case legacyModelFormat = "CP112"
    case noCurrentVersion = "CP113"
    case missingCurrentVersion = "CP114"
    case duplicateModelName = "CP115"
    case unknownEntityReference = "CP116"
    case parentEntityCycle = "CP117"
    case malformedModelXML = "CP118"
    case unclassifiedChain = "CP119"
    case unreadableMappingModel = "CP120"
    case unmatchedMappingModel = "CP121"
    case unhashableModelVersion = "CP122"
    case hashIdenticalVersions = "CP123"
    case invalidConfiguration = "CP130"
    // Classification
    case notInferable = "CP201"
    case renameWithoutIdentifier = "CP202"
    case couldFailValidation = "CP203"
    case attributeTypeChange = "CP204"
    case hierarchyChange = "CP205"
    case mappingModelOnInferableStep = "CP206"
    case directJumpFails = "CP207"
    case staleMappingModel = "CP208"
    case dataRemoved = "CP209"
    case unverifiedChange = "CP210"
    case propertyKindChange = "CP211"
    case duplicateRenamingIdentifier = "CP212"
    // Stores
    case unreadableStore = "CP300"
    case unknownStoreVersion = "CP301"
    case ambiguousStoreVersion = "CP302"
    case heavyweightMemory = "CP303"
    case dataViolatesDestination = "CP304"
    case deferredColumnsMismatch = "CP305"
    // Locks
    case lockedVersionChanged = "CP401"
    case lockedVersionMissing = "CP402"
    case unreadableLock = "CP403"
    case acceptanceNotApplied = "CP404"
    // Staged migration
    case duplicateChecksumInStage = "CP501"
    case checksumAcrossStages = "CP502"
    case equalCustomEndpoints = "CP503"
    case appModelNotStaged = "CP504"
    case versionNotStaged = "CP505"
    case staleChecksum = "CP506"
    case backwardStages = "CP507"
    case stagesEndOffAppModel = "CP508"
    case handlerOffCurrentModel = "CP509"
    case stageJumpFails = "CP510"
    case stageJumpDropsData = "CP511"
    case identicalChecksums = "CP512"
    case stageCycle = "CP513"
    case intermediateVersionExists = "CP514"
    case stageHintNotAStep = "CP515"
    // Multi-pass migration (mapping models run pass by pass)
    case unmappedEntity = "CP701"
    case entityMappedTwice = "CP702"
    case mandatoryTargetInLaterPass = "CP703"
    case crossPassWithoutKey = "CP704"
    case partialMappingModel = "CP705"
    case noPassesNeeded = "CP706"
    case noEntityMappings = "CP707"
    case passStoreNotAtSource = "CP708"

    public var rule: Rule { Rule.catalogue[self]! }

    public static func < (lhs: DiagnosticCode, rhs: DiagnosticCode) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What a code means: its name, default severity and a description for `chainplan rules`.
/// Encoded (`chainplan rules --format json`) with every field, the code and severity as written.
public struct Rule: Sendable, Hashable, Encodable {
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
        Rule(code: .unreadableSpec, name: "UnreadableSpec", summary: "The chain spec cannot be read or parsed",
             help: "The file is missing, not a regular file, not UTF-8, too large, too deeply nested, not valid JSON or YAML, or not one of the supported forms (array, version tree, full form with a `chain` key, or null/[]/{}). Fix the file at the given location.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .duplicateVersionInArray, name: "DuplicateVersionInArray", summary: "A version appears more than once in an array chain",
             help: "An array chain lists each version once, oldest first. A repeated version makes the chain loop or gives a version two successors; CoreStore asserts in debug builds and silently misbehaves in release builds.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .duplicateSourceVersion, name: "DuplicateSourceVersion", summary: "A source version appears twice as a key of a version tree",
             help: "Each source version migrates to exactly one destination. A second key for the same version is ambiguous; JSON and YAML parsers silently keep one of them.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .selfLoop, name: "SelfLoop", summary: "A version migrates to itself",
             help: "`\"A\": \"A\"` is a no-op that CoreStore silently ignores; the version then has no way forward. Point it at its real successor or remove the entry.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .migrationCycle, name: "MigrationCycle", summary: "The chain contains a cycle",
             help: "Versions in a cycle never reach the target: a store at any of them migrates forever or fails. Each strongly connected component is reported once with its members in order.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .unknownVersion, name: "UnknownVersion", summary: "A chain version is not in the model bundle",
             help: "Every version the chain names must exist as a `.xcdatamodel` in the bundle; otherwise Core Data cannot load it and migration fails at runtime (CoreStore: mappingModelNotFound). Check the spelling against the hint.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .noSingleTarget, name: "NoSingleTarget", summary: "The chain has no single target version",
             help: "A non-empty chain must end in exactly one leaf (the version every store migrates to), or name it with `target`. Several leaves, or none (everything in cycles), leave the target ambiguous.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .versionMissingFromChain, name: "VersionMissingFromChain", summary: "A model version is not in the chain",
             help: "A store created by this model version has no migration path: the app fails to open it. Add the version to the chain, or delete the version from the bundle if it never shipped.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .unreachableTarget, name: "UnreachableTarget", summary: "A start version has no path to the target",
             help: "Following the chain from this version ends somewhere other than the target (a dead end) or loops. A store at this version cannot be migrated.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .targetNotCurrentVersion, name: "TargetNotCurrentVersion", summary: "The chain's target is not the bundle's current version",
             help: "CoreStore bypasses the bundle's current version (`.xccurrentversion`) when a chain is given, so the app runs on the chain's leaf. Usually one of the two was not updated.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .inferredOrder, name: "InferredOrder", summary: "The chain order was inferred from version names",
             help: "No spec was given, so chainplan ordered the bundle's versions by a natural version sort. Review the order and commit a spec (`chainplan init`).",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .unreadableModelBundle, name: "UnreadableModelBundle", summary: "The model bundle cannot be read",
             help: "The `.xcdatamodeld` is missing, not a directory, holds no versions, or lies outside the spec's folder without `--allow-outside`.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .legacyModelFormat, name: "LegacyModelFormat", summary: "A model version uses the pre-Xcode-4 binary format",
             help: "The version folder holds binary `elements`/`layout` files and no `contents` XML. chainplan decodes the `elements` archive when it can (its findings then have no line numbers); when it cannot, steps touching the version cannot be classified. Core Data's version hashes cannot be computed exactly for such a version (`chainplan hash` says so), so steps touching it are compared field by field. Open and save the model in a current Xcode to convert it.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .noCurrentVersion, name: "NoCurrentVersion", summary: "The bundle does not say which version is current",
             help: "`.xccurrentversion` is missing or empty and the bundle has several versions. Xcode picks one silently; set the current version in Xcode's model inspector.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .missingCurrentVersion, name: "MissingCurrentVersion", summary: "`.xccurrentversion` names a version that does not exist",
             help: "The file names a `.xcdatamodel` folder that is not in the bundle; momc fails to compile it.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .duplicateModelName, name: "DuplicateModelName", summary: "An entity or property name is defined twice",
             help: "Xcode refuses a model with two entities of one name, or two properties of one name in an entity (inherited ones included).",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .unknownEntityReference, name: "UnknownEntityReference", summary: "A relationship or parent names an entity that does not exist",
             help: "A relationship's destination or inverse entity, or an entity's parent, is not defined in the model version; momc fails to compile it.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .parentEntityCycle, name: "ParentEntityCycle", summary: "Entity inheritance forms a cycle",
             help: "An entity is (indirectly) its own parent; no model can be built from it.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .malformedModelXML, name: "MalformedModelXML", summary: "A model's `contents` is not a valid Core Data model document",
             help: "The XML is truncated, not UTF-8, has the wrong root element, declares a DTD or entities (refused for safety), misses required attributes, or exceeds size limits.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .unclassifiedChain, name: "UnclassifiedChain", summary: "The chain's steps were not classified: no model bundle",
             help: "A bare CoreStore chain (`[\"Model\", \"Model 2\"]`) names versions but not the bundle that holds them. chainplan looks for the one `.xcdatamodeld` under the spec's folder with every version; when there is none, or several, no step can be classified, so migration kinds, data loss and mapping models go unchecked and the chain cannot pass. Use the full form with `model`.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .unreadableMappingModel, name: "UnreadableMappingModel", summary: "A mapping model cannot be read",
             help: "The `.xcmappingmodel` has no readable `xcmapping.xml`, or its embedded model snapshots cannot be decoded.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .unmatchedMappingModel, name: "UnmatchedMappingModel", summary: "A mapping model matches no step of the chain",
             help: "Neither its embedded models nor its stated paths correspond to a step. It is dead weight, or the step it was made for is missing from the chain.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .unhashableModelVersion, name: "UnhashableModelVersion", summary: "A model version's Core Data version hashes cannot be computed",
             help: "Core Data decides whether a store needs migrating, which version a store is at and which mapping model fits by entity version hashes. chainplan computes them exactly from `contents`, but not for a legacy Xcode 3 version (binary `elements`, no `contents`) or a model Core Data could not compile either (an attribute type chainplan does not know, a missing or cyclic parent entity). Steps touching such a version fall back to comparing fields. Re-save the version in a current Xcode, or fix the model.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .hashIdenticalVersions, name: "HashIdenticalVersions", summary: "Two model versions have identical Core Data version hashes",
             help: "Core Data tells versions apart only by their entity version hashes, so two versions whose hashes are all equal are one version to it: no migration runs between them, and a store of either matches both. A warning when they differ in nothing a migration reads from its source model: a changed default applies to new objects only (existing rows keep their values), and an index or userInfo change may be read by the in-place migration (unverified). An error when they differ in something a migration reads from its source model and the hash ignores (a renaming identifier, which the mapping builder and both migration paths key by; a transformable attribute's value transformer when a step from them runs in memory with a mapping model, since that path decodes source values with it): which of the two Core Data picks as a store's source model is undefined. Change a hashed input (e.g. a versionHashModifier) of the newer one so a migration runs, or merge them.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .invalidConfiguration, name: "InvalidConfiguration", summary: "The rule configuration is invalid",
             help: "`.chainplan.yml` names an unknown code, a severity other than off/note/warning/error, or a bad threshold.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .notInferable, name: "NotInferable", summary: "A step cannot be inferred and has no mapping model",
             help: "Core Data's mapping builder refuses this step (134190; the app fails with 134140) and no mapping model covers it: a to-many relationship becomes to-one, or external storage is turned off. The finding names the cause. Add a mapping model for the step, or split it into inferable steps.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .renameWithoutIdentifier, name: "RenameWithoutIdentifier", summary: "A likely rename has no renaming identifier",
             help: "An entity or property was removed and one of the same kind added in the same step, or an element keeps its name but its key (renaming identifier, else name) no longer equals the other version's. Core Data matches keys exactly and infers this as drop + add: the data is deleted. Set the renaming identifier (Xcode: Versioning > Renaming ID) to the old key the finding names.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .couldFailValidation, name: "CouldFailValidation", summary: "A step infers, but fails on stores with rows lacking a mandatory value",
             help: "A new mandatory attribute or relationship without a default, or an optional one made mandatory without a default: Core Data infers the mapping and flags it \"could fail validation\"; the migration fails (134110) on a store where a row has no value (for a new one: as soon as the entity has a row). The finding lists the checks; `chainplan dry-run` counts them on a real store. Give the property a default value, or fill it in a custom stage first.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .attributeTypeChange, name: "AttributeTypeChange", summary: "An attribute's type change cannot be inferred",
             help: "Core Data's builder converts Integer 16/32/64, Decimal, Double, Float and Boolean into one another and refuses every other type change (134190 \"Source and destination attribute types are incompatible\"). With NSMigrationAllowTypeTransformation in the destination attribute's userInfo only Transformable <-> Binary is accepted, and an unchanged type with the key is refused too. Add a mapping model, or remove the key after the step that needs it.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .hierarchyChange, name: "HierarchyChange", summary: "An entity hierarchy changes (outcome unverified)",
             help: "An entity changes its parent or its abstract flag, or separate hierarchies are merged. Core Data's builder does not examine hierarchies and infers the step, but how the rows move between tables is not verified, and Apple documents hierarchy merges as unsupported. Test the migration on a real store.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .mappingModelOnInferableStep, name: "MappingModelOnInferableStep", summary: "A mapping model covers a step that would infer anyway",
             help: "Legitimate when the mapping transforms data; otherwise the mapping model forces a slower heavyweight migration.",
             defaultSeverity: .note, unusableInput: false),
        Rule(code: .directJumpFails, name: "DirectJumpFails", summary: "The direct jump from a start to the target is not inferable or loses data",
             help: "Every chained step works, but Core Data without a chain (or lightweight-only staged migration) infers one mapping from the store's version straight to the target, and that mapping fails or drops data.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .staleMappingModel, name: "StaleMappingModel", summary: "A mapping model's embedded model no longer equals the version it names",
             help: "The model was edited after the mapping model was made (its embedded snapshot no longer equals the version), or the spec's `mappings` assigns it to a step it was not made for. Core Data matches mapping models by entity hashes and will silently not use it. Recreate the mapping model, or assign it to its own step.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .dataRemoved, name: "DataRemoved", summary: "A step drops an entity or attribute",
             help: "The data stored in it is deleted by the migration. Intended or not, a reviewer should know.",
             defaultSeverity: .note, unusableInput: false),
        Rule(code: .unverifiedChange, name: "UnverifiedChange", summary: "A change Core Data infers with an unverified or data-dependent outcome",
             help: "For example a relationship pointing at another entity (the builder does not compare destinations), a new uniqueness constraint (the migration fails on stores with duplicates), or a value transformer change (no migration converts the stored bytes). Test the migration on a real store.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .propertyKindChange, name: "PropertyKindChange", summary: "An attribute is replaced by a relationship or entity (or the reverse)",
             help: "For example a `categoria` string attribute becoming a `Categoria` entity. Core Data infers this as drop + add: the step migrates, but the old values are deleted. Move the data with a mapping model or a custom migration stage.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .duplicateRenamingIdentifier, name: "DuplicateRenamingIdentifier", summary: "Two entities or properties share a renaming identifier",
             help: "Core Data keys entities and stored properties by renaming identifier, else name. Two source entities, two destination entities, or two stored properties of one source entity with the same key make it refuse to infer (134190 \"Each source entity / destination entity / property must have a unique renaming identifier\"; the app fails with 134140). Typical cause: an element renamed with the old name as identifier while a new one takes the old name. Remove or change one of the identifiers.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .unreadableStore, name: "UnreadableStore", summary: "The store cannot be read",
             help: "The path is not a SQLite database, is empty, truncated, encrypted, a directory, locked beyond the timeout, or not a Core Data store (no Z_METADATA).",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .unknownStoreVersion, name: "UnknownStoreVersion", summary: "No model version matches the store",
             help: "Neither hashes, identifiers nor structure identify the store's model version. The closest version and the differences are named.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .ambiguousStoreVersion, name: "AmbiguousStoreVersion", summary: "Several model versions match the store equally",
             help: "The evidence does not single out one version. Supply the compiled model (`--momd`) so the entity hashes decide.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .heavyweightMemory, name: "HeavyweightMemory", summary: "A heavyweight step would load more than the memory threshold",
             help: "A heavyweight migration loads every instance of the mapped entities. Split the mapping model into several passes by entity to bound memory.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .dataViolatesDestination, name: "DataViolatesDestination", summary: "Stored data violates the destination model",
             help: "Rows would fail validation after migration: NULLs in attributes that become non-optional, duplicates under a new uniqueness constraint, values outside new min/max, empty required to-one relationships.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .deferredColumnsMismatch, name: "DeferredColumnsMismatch", summary: "The store's deferred columns do not match its model",
             help: "A deferred lightweight migration renames removed columns `_DEFERRED_<uuid>__<column>` until `finishDeferredLightweightMigration()` copies their tables (core-data-internals §7.3). Such a column in a table the store's model version does not have, with another name shape, or standing for a column the model still reads means the store is not at the version it claims or its schema was edited: neither finishing nor the next migration can be predicted.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .lockedVersionChanged, name: "LockedVersionChanged", summary: "A shipped (locked) model version was edited",
             help: "Its Core Data version hashes differ from those `chain.lock` records (the message names each entity, property and field that moved). Stores in users' hands record the original's hashes; an edited version no longer matches them.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .lockedVersionMissing, name: "LockedVersionMissing", summary: "The lock names a version the bundle no longer has",
             help: "A shipped version was deleted or renamed; stores at that version can no longer be opened.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .unreadableLock, name: "UnreadableLock", summary: "The lock file cannot be read",
             help: "`chain.lock` beside the spec is not a file chainplan wrote, was edited by hand, or was written by an older chainplan (fingerprints, not Core Data's hashes). Regenerate it with `chainplan lock --force` from the commit that shipped.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .acceptanceNotApplied, name: "AcceptanceNotApplied", summary: "An `accept` entry of the spec accepts nothing",
             help: "`accept` acknowledges findings on a shipped step, one whose versions are both in `chain.lock`, with a reason; they are then reported as accepted and no longer fail the gate. An entry for a step the lock does not protect, or one that matches no finding any more, accepts nothing: lock the versions when they ship, fix the step, or remove the entry.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .duplicateChecksumInStage, name: "DuplicateChecksumInStage", summary: "A lightweight stage lists a checksum twice",
             help: "`NSLightweightMigrationStage`'s initializer throws \"Duplicate version checksums detected.\", an Objective-C exception Swift cannot catch: the app crashes at launch. List each version's checksum once.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .checksumAcrossStages, name: "ChecksumAcrossStages", summary: "A checksum is in two stages where Core Data allows one",
             help: "A checksum may be one custom stage's current model and one custom stage's next model, and then in no lightweight stage; a lightweight checksum may be in one lightweight stage only. Otherwise the manager's initializer throws \"Duplicate version checksums across stages detected.\" and the app crashes at launch.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .equalCustomEndpoints, name: "EqualCustomEndpoints", summary: "A custom stage migrates a model to itself",
             help: "`NSCustomMigrationStage`'s initializer throws \"The current model reference and the next model reference cannot be equal.\" (often two versions whose checksums are equal). Drop the stage or move its handlers to a stage between different models.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .appModelNotStaged, name: "AppModelNotStaged", summary: "The app's model is in no stage",
             help: "Staged migration's pre-flight fails every store with 134504 \"Cannot use staged migration with an unknown coordinator model version.\" Add the current version's checksum to the last stage (usually after adding a new model version and forgetting the stage list).",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .versionNotStaged, name: "VersionNotStaged", summary: "A shipped version is in no stage",
             help: "Stores created by this version fail with 134504 \"Cannot use staged migration with an unknown model version.\" Never delete the store on 134504: add the version's checksum to a stage.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .staleChecksum, name: "StaleChecksum", summary: "A stage names a checksum of no model version",
             help: "The model was edited after the checksum was copied (or the constant was mistyped). Custom stage references crash the manager's initializer; lightweight checksums fail at load with 134504. Regenerate the constants from the compiled model (`chainplan stage --format swift`).",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .backwardStages, name: "BackwardStages", summary: "The stages migrate some store backwards",
             help: "The app model's stage comes before the store's, or precedes it in the last lightweight stage: Core Data refuses with 134506 \"A store file cannot be migrated backwards with staged migration.\" List stages oldest first.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .stagesEndOffAppModel, name: "StagesEndOffAppModel", summary: "Some store does not end on the app model",
             help: "After the stages run the store is re-added; when it is still not at the app model, iOS 26.1 fails with 134100 \"Incompatible metadata after migration because the store version hashes didn't migrate.\" (older systems migrated again, so short plans seemed to work). End the stages exactly on the app model.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .handlerOffCurrentModel, name: "HandlerOffCurrentModel", summary: "A willMigrate handler runs while the store is not at its stage's current model",
             help: "`willMigrateHandler` opens the store at the stage's current model with migration off: a store elsewhere fails with 134100 \"The model used to open the store is incompatible with the one used to create the store\". Add stages so every store reaches the current model first.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .stageJumpFails, name: "StageJumpFails", summary: "A jump the staged migration executes cannot be migrated",
             help: "Lightweight stages do not step: a run of them is one jump from the store's model to the run's target, and Core Data must infer (or find a mapping model for) that jump; otherwise 134140 \"Can't find or automatically infer mapping model for migration\". Insert a custom stage (handler-less is enough) so the store steps.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .stageJumpDropsData, name: "StageJumpDropsData", summary: "A jump the staged migration executes drops data that stepping keeps",
             help: "The jump's single inferred mapping loses a value (for example a rename whose identifiers chain step by step but not across the jump). Insert a handler-less custom stage to force stepping.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .identicalChecksums, name: "IdenticalChecksums", summary: "Two versions have the same checksum",
             help: "Core Data cannot tell them apart; a stage list may name the checksum once only (twice crashes the initializer). The plan lists it once. They still differ in what hashes ignore (renaming identifiers, defaults), which can change inference.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .stageCycle, name: "StageCycle", summary: "Custom stages form a cycle",
             help: "The manager accepts cycles, but a store on one migrates away from its model and back. Usually two stages were written in the wrong direction.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .intermediateVersionExists, name: "IntermediateVersionExists", summary: "A version `stage --write-models` would write exists already",
             help: "`chainplan stage --write-models` writes each decomposition's intermediate version as a new `.xcdatamodel` folder and never overwrites one: a shipped model edited in place fails on users' devices with 134504 (its checksum changes). Nothing is written when any name exists. A folder left by an earlier run is usually that run's output: plan the chain it printed (the new version listed, its custom step under `stages`); otherwise rename or remove the folder.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .stageHintNotAStep, name: "StageHintNotAStep", summary: "A `stages` hint names no step of the chain",
             help: "Each `stages` entry (in the spec or `.chainplan.yml`) marks one step, `From -> To` with To the next version stores migrate to, as a custom migration stage. An entry naming a version the chain does not have, two versions that are not neighbours, or a step backwards marks nothing, and the stage the hint asked for is missing from the plan. Fix the names, or mark each step of a longer stretch.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .unmappedEntity, name: "UnmappedEntity", summary: "A source entity the step keeps is mapped by no pass",
             help: "NSMigrationManager does not check that a mapping model covers every entity: a source entity no entity mapping reads is not migrated, and its objects are lost. Add an entity mapping for it to one of the passes.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .entityMappedTwice, name: "EntityMappedTwice", summary: "Two entity mappings copy the same source entity into the same destination entity",
             help: "Both run, so every object is created twice in the destination (or the second pass fails on a uniqueness constraint). Keep one of them.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .mandatoryTargetInLaterPass, name: "MandatoryTargetInLaterPass", summary: "A mandatory relationship's target is created by a later pass",
             help: "Each pass is one migrateStore call that validates its objects before saving, and associations do not cross calls: a required relationship (or one with a minimum count) whose target does not exist yet fails validation. Create the target in the same or an earlier pass; mutually dependent entities share a pass.",
             defaultSeverity: .error, unusableInput: false),
        Rule(code: .crossPassWithoutKey, name: "CrossPassWithoutKey", summary: "A relationship crosses passes and the earlier side has no unique key",
             help: "A relationship between entities of two passes is set in the later pass by fetching the already migrated object from the destination by a unique key (a uniqueness constraint); a value expression naming the other pass's entity mapping fails with \"Can't find mapping for name\". Add a uniqueness constraint to the entity, or merge the two passes.",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .partialMappingModel, name: "PartialMappingModel", summary: "A mapping model that covers part of a step sits in the bundle",
             help: "Core Data's automatic migration takes any bundled mapping model whose entity hashes are a subset of the models', so it can pick one pass's mapping model instead of the full migration and silently drop the entities it does not map. Keep one full mapping model and build each pass's NSMappingModel from a subset of its entity mappings at run time (`chainplan passes --format swift`).",
             defaultSeverity: .warning, unusableInput: false),
        Rule(code: .noPassesNeeded, name: "NoPassesNeeded", summary: "`passes` was asked for a step that is not heavyweight",
             help: "An inferred step runs in SQL in place and loads no objects; a step between hash-equal versions runs no migration. Passes only bound the memory of a mapping-model (heavyweight) migration.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .noEntityMappings, name: "NoEntityMappings", summary: "A heavyweight step has no possible entity mapping",
             help: "No destination entity has a source entity with its key (renaming identifier, else name) and no mapping model maps one: there is nothing to migrate pass by pass. Write the step's mapping model.",
             defaultSeverity: .error, unusableInput: true),
        Rule(code: .passStoreNotAtSource, name: "PassStoreNotAtSource", summary: "The store that sizes the passes is not at the step's source version",
             help: "`passes --store` sizes each pass by the store's rows per entity, which only describe the step when the store is at its source version. The store is identified by its version hashes (as `dry-run` does); at another version, or at none, its row counts are at best an estimate. Give a store of the source version (`chainplan dry-run` says where a store is).",
             defaultSeverity: .warning, unusableInput: false),
    ]
    // swiftlint:enable line_length
}

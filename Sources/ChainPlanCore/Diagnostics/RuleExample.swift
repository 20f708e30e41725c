/// A worked example of a rule: an input and the findings of the rule's code it must raise.
/// `chainplan rules CPnnn` runs and shows each one, and a test runs every one (Kit runs them:
/// only it sees every stage).
public struct RuleExample: Sendable, Hashable, CustomStringConvertible {
    /// What the example gives chainplan.
    public enum Input: Sendable, Hashable {
        /// A spec, planned against a bundle of empty model versions when `bundleVersions` names
        /// some (in history order, with that current version): chain checks.
        case chain(spec: String, syntax: SpecSyntax, bundleVersions: [String]?, currentVersion: String?)
        /// Successive versions of a small model (each version's `<entity>` elements, versions
        /// `V1`, `V2`, …) classified as a chain; a mapping model covers `V1` → `V2` when asked.
        case versions([String], mappingModelOnFirstStep: Bool)
        /// Successive versions (the last is the app model), their checksums (`V1`'s is `sum-V1`,
        /// unless its index is in `sameChecksum`: then the version before's), and a stage list to
        /// audit, written with version names standing for their checksums, or nil for chainplan's
        /// own plan. A stage is `lightweight`, `custom` (with handlers) or `bridge` (a custom stage
        /// without handlers).
        case stages(versions: [String], sameChecksum: Set<Int>, stages: [[String]]?)
        /// A project folder, run through the command a user would.
        case project(Project)
        /// Swift source files (path relative to a folder, text), read by the SwiftData reader as
        /// `chainplan hash FOLDER` reads them.
        case swift([File])
    }

    /// How a chain example's spec is written.
    public enum SpecSyntax: String, Sendable, Hashable {
        case json, yaml
    }

    /// What the run must raise: the findings of the rule's code at these positions, in order, or
    /// only how many (0: the example must not trigger); for an inference rule's example, the
    /// step's outcome and whether the rule is among its changes.
    public enum Expected: Sendable, Hashable {
        case positions([Position])
        case count(Int)
        case inference(Outcome, fires: Bool)
    }

    /// What Core Data's mapping inference gives for a step.
    public enum Outcome: String, Sendable, Hashable {
        /// Equal entity hashes: Core Data runs no migration.
        case none
        /// Inferred, no data-dependent check.
        case inferred
        /// Inferred, flagged "could fail validation": the result depends on the store's rows.
        case validation
        /// The builder refuses (134190): a mapping model is needed.
        case refused
    }

    /// A finding's 1-based line and column (nil where the finding has none).
    public struct Position: Sendable, Hashable {
        public var line: Int?
        public var column: Int?

        public init(line: Int?, column: Int?) {
            self.line = line
            self.column = column
        }
    }

    /// A file of a project folder, by its path relative to the folder.
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

    /// A project folder (a spec, model `contents`, a mapping model, a `.chainplan.yml`, a
    /// `chain.lock`) and the command run on it: `validate`, or `dry-run` when there is a store.
    public struct Project: Sendable, Hashable {
        public var files: [File]
        /// The folder as it was when `chainplan lock` ran: these files are written, the lock is
        /// made, then they are removed and `files` written (lock codes).
        public var lockedFiles: [File]?
        /// The folder as a release shipped it: these files are committed to a new git repository
        /// and tagged `shipped`, then replaced by `files`, and the command runs `--against`
        /// `against` (shipped-model codes).
        public var shippedFiles: [File]?
        public var against: String
        public var store: Store?
        /// The input given to the command: `chain.json`, or the bundle itself.
        public var input: String
        /// Runs `chainplan passes` on this step instead of `validate` (multi-pass codes).
        public var passes: StepKey?
        /// Runs `chainplan stage --write-models` instead of `validate` (it writes into the folder).
        public var writesModels: Bool
        /// Runs `chainplan stage` instead of `validate` (the stage plan's findings).
        public var plansStages: Bool
    }

    public var title: String
    public var input: Input
    public var expected: Expected

    public init(_ title: String, _ input: Input, expected: Expected) {
        self.title = title
        self.input = input
        self.expected = expected
    }

    public var description: String { title }

    /// The version names of an example with `count` versions: `V1`, `V2`, ….
    public static func versionNames(_ count: Int) -> [String] { (0..<count).map { "V\($0 + 1)" } }

    /// How many findings of the rule's code the example raises (an inference example: 1 when
    /// its rule fires, else 0).
    public var expectedCount: Int {
        switch expected {
        case .positions(let positions): positions.count
        case .count(let count): count
        case .inference(_, let fires): fires ? 1 : 0
        }
    }

    /// A spec alone (and a bundle's version names): the findings at these (line, column)s.
    public static func chain(_ title: String, spec: String, syntax: SpecSyntax = .json, bundleVersions: [String]? = nil,
                             currentVersion: String? = nil, expected: [(Int?, Int?)]) -> RuleExample {
        RuleExample(title, .chain(spec: spec, syntax: syntax, bundleVersions: bundleVersions, currentVersion: currentVersion),
                    expected: .positions(expected.map { Position(line: $0.0, column: $0.1) }))
    }

    /// Successive versions' entities, classified as a chain.
    public static func versions(_ title: String, versions: [String], mappingModelOnFirstStep: Bool = false, expected: Int) -> RuleExample {
        RuleExample(title, .versions(versions, mappingModelOnFirstStep: mappingModelOnFirstStep), expected: .count(expected))
    }

    /// Two versions' entities (`V1` → `V2`), inferred as one step: an inference rule's example.
    public static func inference(_ title: String, source: String, destination: String, outcome: Outcome, fires: Bool) -> RuleExample {
        RuleExample(title, .versions([source, destination], mappingModelOnFirstStep: false), expected: .inference(outcome, fires: fires))
    }

    /// Successive versions and a stage list to audit (nil: chainplan's own plan).
    public static func stages(_ title: String, versions: [String], sameChecksum: Set<Int> = [], stages: [[String]]?, expected: Int) -> RuleExample {
        RuleExample(title, .stages(versions: versions, sameChecksum: sameChecksum, stages: stages), expected: .count(expected))
    }

    /// Swift source files read by the SwiftData reader: its findings.
    public static func swift(_ title: String, files: [File], expected: Int) -> RuleExample {
        RuleExample(title, .swift(files), expected: .count(expected))
    }

    /// A project folder and the command a user would run on it.
    public static func project(_ title: String, files: [File], lockedFiles: [File]? = nil, shippedFiles: [File]? = nil, against: String = "shipped",
                               store: Store? = nil, input: String = "chain.json",
                               passes: StepKey? = nil, writesModels: Bool = false, plansStages: Bool = false, expected: Int) -> RuleExample {
        RuleExample(title, .project(Project(files: files, lockedFiles: lockedFiles, shippedFiles: shippedFiles, against: against,
                                            store: store, input: input, passes: passes,
                                            writesModels: writesModels, plansStages: plansStages)),
                    expected: .count(expected))
    }
}

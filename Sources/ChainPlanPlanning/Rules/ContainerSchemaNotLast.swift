import ChainPlanCore
import ChainPlanHashing
import ChainPlanReaders
import ChainPlanSwiftSource

extension DiagnosticCode {
    /// CP612 ContainerSchemaNotLast: a container built with a plan opens another model than the plan's last schema.
    ///
    /// Raised by `SwiftDataPlanCheck` (reference swiftdata §7.3, §8 item 7; core-data-internals §6.1 fact 3).
    package static let containerSchemaNotLast = DiagnosticCode(
        "CP612", name: "ContainerSchemaNotLast", severity: .error,
        summary: "The container's model is not the migration plan's last schema",
        help: "With a migration plan, Core Data's staged migration needs the coordinator's model, the one the `ModelContainer` is built for, to be the model of the plan's last schema (compared by checksum). Otherwise opening any store fails with 134504 \"Cannot use staged migration with an unknown coordinator model version.\", typically after a new `SchemaVn` was added to the plan but the container still names the old schema, or names live classes that no longer match it. Build the container for `Schema(versionedSchema: <last schema>.self)`, or make the live classes the last schema's. A plan without stages runs a plain automatic migration, which has no such check.",
        examples: [
            .project("the container still opens V1 after V2 was added", files: [
                RuleExample.File("Models.swift", RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String?"), ("V2", "2.0.0", "var title: String?\nvar body: String?")],
                                                                               stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)").text
                    + "let container = try ModelContainer(for: Schema(versionedSchema: V1.self), migrationPlan: Plan.self)\n"),
            ], input: "Models.swift", expected: 1),
            .project("the container opens the last schema", files: [
                RuleExample.File("Models.swift", RuleExampleFixtures.swiftData([("V1", "1.0.0", "var title: String?"), ("V2", "2.0.0", "var title: String?\nvar body: String?")],
                                                                               stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)").text
                    + "let container = try ModelContainer(for: Schema(versionedSchema: V2.self), migrationPlan: Plan.self)\n"),
            ], input: "Models.swift", expected: 0),
        ])
}

/// CP612 (for a plan with stages): each container built with `plan` whose model (a named schema's, or the one its listed
/// classes build) has another checksum than the plan's last schema. A container whose model
/// cannot be read is left out.
enum ContainerSchemaCheck {
    static func findings(_ containers: [SwiftContainer], plan: SwiftMigrationPlan, checksums: [String: String]) -> [Diagnostic] {
        guard let last = plan.schemas.last, let expected = checksums[last] else { return [] }
        return containers.filter { $0.plan == plan.name }.compactMap { container in
            let at = container.location ?? plan.location ?? SourceLocation(file: "")
            let shown: String
            let checksum: String?
            if let schema = container.schema {
                shown = "'\(schema)'"
                checksum = checksums[schema]
            } else if let model = container.model, case .success(let hashes) = ModelHasher.hash(model, withProperties: false) {
                shown = "its classes (" + container.models.map { "'\($0)'" }.abbreviated.joined(separator: ", ") + ")"
                checksum = hashes.checksum
            } else {
                return nil
            }
            guard let checksum, checksum != expected else { return nil }
            let same = plan.schemas.filter { checksums[$0] == checksum }.map { "'\($0)'" }
            let matches = same.isEmpty ? "a model no schema of the plan has" : "the model of \(same.joined(separator: ", "))"
            return Diagnostic(.containerSchemaNotLast,
                              "this container is built for \(shown), \(matches), but '\(plan.name)' ends at '\(last)': every store fails with 134504 \"\(StageSimulation.Reason.unknownCoordinatorModel)\"",
                              at: at, versions: [last])
        }
    }
}

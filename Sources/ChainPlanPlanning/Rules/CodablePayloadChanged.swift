import ChainPlanCore
import ChainPlanReaders
import ChainPlanSwiftSource

extension DiagnosticCode {
    /// CP613 CodablePayloadChanged: an `@Attribute(.codable)` payload changes shape between schemas.
    ///
    /// Raised by `SwiftDataPlanCheck` (reference swiftdata §3, §8 item 10) for consecutive plan schemas whose checksums
    /// differ (between schemas with one checksum, CP610 names the payload change among its reasons), and by
    /// `--against` for a schema whose payload changed since the revision.
    package static let codablePayloadChanged = DiagnosticCode(
        "CP613", name: "CodablePayloadChanged", severity: .warning,
        summary: "An @Attribute(.codable) payload changes shape, which the checksum does not see",
        help: "SwiftData stores an `@Attribute(.codable)` property as its value's Codable representation, and the model holds no trace of the payload's shape: Apple documents that changing it does not trigger a migration. Stores keep the payloads the older release wrote, and the newer type must still decode them, or reading the property fails. With `--against REV`, a shipped schema whose payload changed since the revision (a payload type shared with newer schemas and edited) is reported too. Keep the payload decodable from every shipped shape (optional or defaulted new fields, a custom `init(from:)`), or convert the stored values in a `.custom` stage. How SwiftData stores the payload is open (§11.4): chainplan hashes the property as binary data, marked unverified.",
        examples: [
            .project("V2's payload gains a field while V2 also adds a property", files: [
                RuleExampleFixtures.swiftData([
                    ("V1", "1.0.0", "struct Settings: Codable {\n    var theme: String\n}\n@Attribute(.codable) var settings: Settings?"),
                    ("V2", "2.0.0", "struct Settings: Codable {\n    var theme: String\n    var size: Int\n}\n@Attribute(.codable) var settings: Settings?\nvar title: String?"),
                ], stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)"),
            ], input: "Models.swift", expected: 1),
            .project("the payload keeps its shape", files: [
                RuleExampleFixtures.swiftData([
                    ("V1", "1.0.0", "struct Settings: Codable {\n    var theme: String\n}\n@Attribute(.codable) var settings: Settings?"),
                    ("V2", "2.0.0", "struct Settings: Codable {\n    var theme: String\n}\n@Attribute(.codable) var settings: Settings?\nvar title: String?"),
                ], stages: ".lightweight(fromVersion: V1.self, toVersion: V2.self)"),
            ], input: "Models.swift", expected: 0),
        ])
}

/// CP613: for each pair of consecutive schemas of `order` whose checksums are known and differ,
/// each `.codable` payload (matched by entity and property) whose shape changes, at the newer
/// schema's property.
enum CodablePayloadCheck {
    static func findings(order: [String], versions: [String: SwiftSchemaVersion], checksums: [String: String]) -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (older, newer) in zip(order, order.dropFirst()) {
            guard let old = versions[older], let new = versions[newer], let a = checksums[older], let b = checksums[newer], a != b else { continue }
            for (payload, change) in changes(old, new) {
                findings.append(Diagnostic(.codablePayloadChanged,
                                           "\(change) from '\(older)' to '\(newer)': the checksum does not see the payload, so no migration converts "
                                           + "stored values, and '\(newer)' must still decode what '\(older)' wrote",
                                           at: payload.location ?? new.location, versions: [older, newer]))
            }
        }
        return findings
    }

    /// Each payload change since `revision` of the schemas that shipped there and are still
    /// declared (a payload type they share, edited, typically), once, naming every schema it
    /// touches: their stores hold the old payloads.
    static func findings(shipped: [SwiftSchemaVersion], now: [SwiftSchemaVersion], revision: String) -> [Diagnostic] {
        var changed: [(change: String, location: SourceLocation?, schemas: [String])] = []
        for old in shipped {
            guard let new = now.first(where: { $0.name == old.name }) else { continue }
            for (payload, change) in changes(old, new) {
                if let index = changed.firstIndex(where: { $0.change == change }) {
                    changed[index].schemas.append(new.name)
                } else {
                    changed.append((change, payload.location ?? new.location, [new.name]))
                }
            }
        }
        return changed.map { entry in
            Diagnostic(.codablePayloadChanged,
                       "\(entry.change) in \(entry.schemas.map { "'\($0)'" }.abbreviated.joined(separator: ", ")) since \(revision): the checksum "
                       + "does not see the payload, so stores those releases wrote keep the old payloads, which the app must still decode",
                       at: entry.location, versions: entry.schemas)
        }
    }

    /// Each payload of `new` whose shape differs from the same property's in `old`, with how.
    static func changes(_ old: SwiftSchemaVersion, _ new: SwiftSchemaVersion) -> [(CodablePayload, String)] {
        new.codablePayloads.compactMap { payload in
            guard let previous = old.codablePayloads.first(where: { $0.entity == payload.entity && $0.property == payload.property }),
                  let change = payload.change(from: previous) else { return nil }
            return (payload, change)
        }
    }
}

import ChainPlanCore

extension DiagnosticCode {
    /// CP506 StaleChecksum: a stage names a checksum of no model version.
    ///
    /// Raised by a stage list audit (`StageAudit.staleChecksums`), for a Swift source's literals
    /// (`staleChecksumLiteral`) and for a compiled model (`CompiledChecksumCheck`), all below.
    package static let staleChecksum = DiagnosticCode(
        "CP506", name: "StaleChecksum", severity: .error,
        summary: "A stage names a checksum of no model version",
        help: "The model was edited after the checksum was copied (or the constant was mistyped). Custom stage references crash the manager's initializer; lightweight checksums fail at load with 134504. Regenerate the constants from the compiled model (`chainplan stage --format swift`).",
        examples: [
            .stages("a checksum copied before V2 was edited", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "old-V2-checksum", "V3"]], expected: 1),
            .stages("current checksums", versions: RuleExampleFixtures.three, stages: [["lightweight", "V1", "V2", "V3"]], expected: 0),
        ])
}

extension StageAudit {
    /// Checksums a stage names that are no version of the model.
    func staleChecksums() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        for (index, stage) in stages.enumerated() {
            for key in stage.keys where !known.contains(key) {
                findings.append(Diagnostic(.staleChecksum, "stage \(index + 1) names the checksum '\(key)', which is no version of the model (a stale constant: the model was edited after it was copied); custom references crash the manager's initializer, lightweight ones fail at load with 134504",
                                           at: at(index)))
            }
        }
        return findings
    }
}

/// Cross-checks the checksums a compiled model records (`--momd`, its `VersionInfo.plist`) with
/// the ones Core Data's hash algorithm gives the model files: a version whose two differ is one
/// finding naming both values. The plan keeps the compiled one (the app ships it, and Core Data
/// compares stores against it); the difference means the `.xcdatamodeld` was edited after the
/// `.momd` was built, or the `.momd` is stale. Versions without a computed checksum (a hash input
/// the reference leaves open) are not compared. Example: compiled 'V2' = `abc…`, files hash to
/// `xyz…` → CP506 for 'V2'.
enum CompiledChecksumCheck {
    static func findings(compiled: VersionIdentities, computed: VersionIdentities, order: [String], location: SourceLocation) -> [Diagnostic] {
        order.compactMap { version in
            guard let recorded = compiled.byVersion[version]?.checksum, let hashed = computed.byVersion[version]?.checksum,
                  recorded != hashed else { return nil }
            return Diagnostic(.staleChecksum, "the compiled model records the checksum '\(recorded)' for '\(version)' (\(compiled.source)), but its model file hashes to '\(hashed)': the model was edited after the .momd was built, or the .momd is stale; the plan and generated code use the compiled checksum, which is what the app ships",
                              at: location, versions: [version])
        }
    }
}

extension Diagnostic {
    /// The finding for a checksum literal of a Swift stage list that is no version of the model.
    static func staleChecksumLiteral(_ literal: String, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.staleChecksum, "the checksum literal '\(literal)' is no version of the model (a stale constant: the model was edited after it was copied)",
                   at: location)
    }
}

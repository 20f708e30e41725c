import ChainPlanCore
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

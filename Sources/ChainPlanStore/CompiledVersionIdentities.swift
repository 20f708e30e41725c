import ChainPlanPlanning
extension VersionIdentities {
    /// The identities a compiled model records: a version without a checksum there (older `momc`)
    /// gets none, so plans never show a made-up checksum.
    package init(compiled info: CompiledModelInfo) {
        var byVersion: [String: VersionIdentity] = [:]
        for (version, checksum) in info.versionChecksums {
            let hashes = (info.versionHashes[version] ?? [:]).mapValues { $0.base64EncodedString() }
            byVersion[version] = VersionIdentity(checksum: checksum, entityHashes: hashes)
        }
        self.init(byVersion: byVersion, source: info.path)
    }
}

/// An `.xcdatamodeld` bundle: every version, in history order, and the current version.
public struct ModelBundle: Sendable, Hashable {
    /// The bundle's name without extension, e.g. `WooCommerce`.
    public var name: String
    /// Display path of the bundle (relative to the working directory when below it).
    public var path: String
    /// Versions in natural version order (see `VersionOrder`).
    public var versions: [ModelVersion]
    /// The version `.xccurrentversion` names (without `.xcdatamodel`), when it exists in the bundle.
    public var currentVersion: String?

    public init(name: String, path: String, versions: [ModelVersion], currentVersion: String?) {
        self.name = name
        self.path = path
        self.versions = versions
        self.currentVersion = currentVersion
    }

    public func version(named name: String) -> ModelVersion? { versions.first { $0.name == name } }
    public var versionNames: [String] { versions.map(\.name) }
}

/// One `<Name>.xcdatamodel` folder of a bundle.
public struct ModelVersion: Sendable, Hashable {
    /// The folder name without `.xcdatamodel`; spaces and dots kept.
    public var name: String
    /// Display path of the `contents` file (or of the folder for legacy versions).
    public var path: String
    /// True for a pre-Xcode-4 folder (binary `elements`/`layout`, no `contents`).
    public var isLegacyFormat: Bool
    /// The parsed model; nil when the version is legacy or could not be read.
    public var model: ObjectModel?

    public init(name: String, path: String, isLegacyFormat: Bool = false, model: ObjectModel?) {
        self.name = name
        self.path = path
        self.isLegacyFormat = isLegacyFormat
        self.model = model
    }
}

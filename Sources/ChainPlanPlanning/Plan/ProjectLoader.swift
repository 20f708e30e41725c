import ChainPlanCore
import ChainPlanHistory
import ChainPlanReaders
import ChainPlanSwiftSource
import Foundation

/// What the loading stage read from disk for one input: the spec (read, or inferred from a
/// bundle given directly), the bundle, the mapping models, and the findings of reading them
/// (spec, bundle, mapping paths, the lock, CP119).
package struct LoadedProject {
    var spec: ChainSpec
    var bundle: ModelBundle?
    var isInferred: Bool
    var mappingModels: LoadedMappingModels
    package var findings: [Diagnostic]
    /// The versions `chain.lock` protects; nil without a usable lock.
    var lockedVersions: Set<String>?
    /// Where the bundle is: the input itself, or the spec's `model`; nil without one.
    var bundleURL: URL? = nil
    /// The bundle's git history, when loading read it (a bundle given without a spec).
    var history: Result<VersionHistory, RevisionProblem>? = nil
    /// The SwiftData sources the versions were read from (Swift sources given, or a spec's `swiftdata`).
    package var swiftData: SwiftDataChain? = nil
}

/// The loading stage: every file planning reads (spec, bundle, mapping models, lock) is read
/// here, so the stages after it work on values.
package struct ProjectLoader {
    package var options: PlanOptions

    package init(options: PlanOptions) { self.options = options }

    /// A project, or the report of an input that cannot be used.
    package enum Loaded {
        case project(LoadedProject)
        case unusable(ChainReport)
    }

    /// Loads whatever `url` is: a chain spec, or an `.xcdatamodeld` bundle given directly
    /// (then the chain is every version in natural version order, with CP110).
    package func load(inputAt url: URL) -> Loaded {
        if ModelBundleLocator.isBundle(url) { return load(bundleAt: url) }
        if SwiftSourceLocator.isSwiftSource(url) { return load(swiftAt: url, spec: nil) }
        return load(specAt: url)
    }

    /// Loads SwiftData sources (a Swift file or folder): each schema a version, the chain from
    /// the migration plan (`SwiftDataChain`); the lock beside them and `--against` as for a bundle.
    /// `written`: the spec that names them (`swiftdata`), with its findings and folder; nil when
    /// the sources are the input.
    func load(swiftAt url: URL, spec written: (spec: ChainSpec, findings: [Diagnostic], directory: URL)?) -> Loaded {
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let project = SwiftDataReader.read(at: url, displayPath: display, configuration: options.swiftConfiguration)
        let chain = SwiftDataChain(project, path: display, written: written?.spec)
        var findings = (written?.findings ?? []) + chain.findings
        if chain.findings.hasUnusableInput {
            return .unusable(ChainReport.unusable(spec: written?.spec.file ?? display, diagnostics: findings))
        }
        // The lock beside the spec (or beside the sources given directly), and the revision.
        let staged = !(chain.plan?.stages.isEmpty ?? true)
        let lock = lockFindings(in: written?.directory ?? url.deletingLastPathComponent(), bundle: chain.bundle, staged: staged)
        var shipped: (findings: [Diagnostic], versions: Set<String>?) = ([], nil)
        if let revision = options.against {
            shipped = ShippedSchemas.check(chain, at: url, path: display, planName: written?.spec.migrationPlan, revision: revision, staged: staged,
                                           configuration: options.swiftConfiguration, git: options.git,
                                           location: written?.spec.swiftData?.location ?? SourceLocation(file: display))
        }
        findings += lock.findings + shipped.findings
        return .project(LoadedProject(spec: chain.spec, bundle: chain.bundle, isInferred: chain.isInferred, mappingModels: LoadedMappingModels(),
                                      findings: findings, lockedVersions: Self.union(lock.locked, shipped.versions), bundleURL: nil, swiftData: chain))
    }

    /// Loads a spec file, the bundle it names (or the one found for a bare chain), its mapping
    /// models and the lock beside it.
    package func load(specAt url: URL) -> Loaded {
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let read = SpecReader(maxBytes: options.maxSpecBytes, codes: PlanningRules.all).read(fileAt: url, displayPath: display)
        guard let written = read.spec else {
            return .unusable(ChainReport.unusable(spec: display, diagnostics: read.diagnostics))
        }
        let specDirectory = url.deletingLastPathComponent()
        if let sources = written.swiftData {
            let sourcesURL = URL(fileURLWithPath: sources.value, relativeTo: specDirectory).standardizedFileURL
            if let problem = confinementProblem(sourcesURL, specDirectory: specDirectory, what: "SwiftData sources") {
                return .unusable(ChainReport.unusable(spec: display, diagnostics: read.diagnostics + [Diagnostic(.unreadableSpec, problem, at: sources.location)]))
            }
            return load(swiftAt: sourcesURL, spec: (written, read.diagnostics, specDirectory))
        }
        let (spec, unclassified) = namingBundle(of: written, specDirectory: specDirectory)
        // Mapping models do not depend on the bundle: read both at once (they are only used with
        // a bundle; without a model both are empty).
        let ((bundle, bundleDiagnostics), found) = spec.model == nil
            ? ((nil, []), LoadedMappingModels())
            : Parallel.both(
                { self.loadBundle(for: spec, specDirectory: specDirectory) },
                { self.loadMappingModels(under: specDirectory, spec: spec, specDirectory: specDirectory) })
        // Without a model, mapping paths are still checked (with one, loading them did).
        let mappingPaths = spec.model == nil ? spec.mappings.compactMap { mappingPathProblem($0, specDirectory: specDirectory) } : []
        let lock = lockFindings(in: specDirectory, bundle: bundle)
        let bundleURL = spec.model.map { URL(fileURLWithPath: $0.value, relativeTo: specDirectory).standardizedFileURL }
        let shipped = shippedFindings(bundle: bundle, at: bundleURL, mappings: found, location: spec.model?.location ?? SourceLocation(file: display))
        return .project(LoadedProject(spec: spec, bundle: bundle, isInferred: false,
                                      mappingModels: bundle == nil ? LoadedMappingModels() : found,
                                      findings: read.diagnostics + bundleDiagnostics + mappingPaths + lock.findings + shipped.findings + unclassified,
                                      lockedVersions: Self.union(lock.locked, shipped.versions), bundleURL: bundle == nil ? nil : bundleURL))
    }

    /// Loads a bundle without a spec: the chain is guessed (`inferredOrder(of:at:)`).
    package func load(bundleAt url: URL) -> Loaded {
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let folder = url.deletingLastPathComponent()
        // Mapping models are found and read while the bundle is read; the spec they are
        // located against is the inferred one, which names no mapping paths.
        let noPaths = ChainSpec.inferred(versions: [], file: display)
        let (read, mappings) = Parallel.both(
            { ModelBundleReader().read(bundleAt: url, displayPath: display) },
            { self.loadMappingModels(under: folder, spec: noPaths, specDirectory: folder) })
        guard let bundle = read.bundle else {
            return .unusable(ChainReport.unusable(spec: display, diagnostics: read.diagnostics))
        }
        let lock = lockFindings(in: folder, bundle: bundle)
        let shipped = shippedFindings(bundle: bundle, at: url, mappings: mappings, location: SourceLocation(file: display))
        let history = VersionHistory.read(bundleAt: url, versionNames: bundle.versionNames, git: options.git)
        return .project(LoadedProject(spec: ChainSpec.inferred(Self.inferredOrder(of: bundle, history: history), file: display), bundle: bundle,
                                      isInferred: true, mappingModels: mappings, findings: read.diagnostics + lock.findings + shipped.findings,
                                      lockedVersions: Self.union(lock.locked, shipped.versions), bundleURL: url, history: history))
    }

    /// The chain guessed for `bundle` (at `url`); see `inferredOrder(of:history:)`.
    package func inferredOrder(of bundle: ModelBundle, at url: URL) -> InferredOrder {
        Self.inferredOrder(of: bundle, history: VersionHistory.read(bundleAt: url, versionNames: bundle.versionNames, git: options.git))
    }

    /// The chain guessed for `bundle`: its versions in the order git history added them when
    /// `history` could be read and is not a shallow clone's, else in natural version order; it
    /// ends at the bundle's current version.
    static func inferredOrder(of bundle: ModelBundle, history: Result<VersionHistory, RevisionProblem>) -> InferredOrder {
        let names = bundle.versionNames
        let current = bundle.currentVersion
        switch history {
        case .success(let history) where history.isShallow:
            return .make(names: names, current: current, addedOrder: nil, whyNoHistory: "the clone is shallow, so git history was not used")
        case .success(let history):
            return .make(names: names, current: current, addedOrder: history.addedOrder)
        case .failure(.notAWorkTree), .failure(.outsideRepository):
            return .make(names: names, current: current, addedOrder: nil)
        case .failure(.gitNotInstalled):
            return .make(names: names, current: current, addedOrder: nil, whyNoHistory: "git was not found, so history was not used")
        case .failure(let problem):
            return .make(names: names, current: current, addedOrder: nil, whyNoHistory: "git history could not be read: \(problem.reason)")
        }
    }

    /// The versions either source protects; nil when neither is in use.
    static func union(_ lock: Set<String>?, _ shipped: Set<String>?) -> Set<String>? {
        guard lock != nil || shipped != nil else { return nil }
        return (lock ?? []).union(shipped ?? [])
    }

    /// The findings of the bundle at `url` and of its mapping models against the revision
    /// `options.against` (CP401, CP402, CP405–CP410), and the versions that shipped there;
    /// nothing without the option. `location` is where a revision that cannot be read is reported.
    func shippedFindings(bundle: ModelBundle?, at url: URL?, mappings: LoadedMappingModels,
                         location: SourceLocation) -> (findings: [Diagnostic], versions: Set<String>?) {
        guard let revision = options.against, let bundle, let url else { return ([], nil) }
        let files: RevisionFiles
        switch RevisionFiles.open(containing: url, revision: revision, git: options.git) {
        case .success(let opened): files = opened
        case .failure(let problem): return ([.unreadableRevision(problem, at: location)], nil)
        }
        let read: ShippedBundle
        switch ShippedBundle.read(bundleAt: url, from: files) {
        case .success(let shipped): read = shipped
        case .failure(let problem): return ([.unreadableRevision(problem, at: location)], nil)
        }
        guard read.isPresent else {
            return ([.bundleNotAtRevision(bundle.path, revision: read.revision, at: location)], [])
        }
        let shipped = ShippedVersions(read, comparedWith: bundle) { version in
            Self.contents(at: url.appendingPathComponent("\(version.name).xcdatamodel/contents"))
        }
        return (shipped.check(against: bundle) + shippedMappingFindings(mappings, files: files), shipped.names)
    }

    /// CP410 for each mapping model that the revision of `files` also holds and that was re-made
    /// for other hashes since; a mapping model git cannot read there is left out.
    func shippedMappingFindings(_ mappings: LoadedMappingModels, files: RevisionFiles) -> [Diagnostic] {
        mappings.models.compactMap { mapping in
            guard let url = mappings.folders[mapping.path] else { return nil }
            let folder = url.lastPathComponent == "xcmapping.xml" ? url.deletingLastPathComponent() : url
            guard case .success(let found) = files.files(under: folder, including: { $0 == "xcmapping.xml" }), let shipped = found.files["xcmapping.xml"],
                  let current = Self.contents(at: folder.appendingPathComponent("xcmapping.xml")) else { return nil }
            return ShippedVersions.mappingModelChange(mapping, shipped: shipped, current: current, revision: files.revision)
        }
    }

    /// The bytes of the regular file at `url`, nil when it cannot be read.
    static func contents(at url: URL) -> Data? {
        try? FileAccess.readRegularFile(at: url, maxBytes: ModelContentsParser.defaultMaxBytes).get()
    }

    /// CP401/CP402 from `chain.lock` in `directory`, when there is one and a bundle was read, and
    /// the versions the lock protects (nil without a usable lock).
    /// `staged`: the app migrates by stages (a SwiftData plan with stages).
    func lockFindings(in directory: URL, bundle: ModelBundle?, staged: Bool = false) -> (findings: [Diagnostic], locked: Set<String>?) {
        guard let bundle else { return ([], nil) }
        let url = directory.appendingPathComponent(ChainLock.fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return ([], nil) }
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let (lock, diagnostics) = ChainLock.load(at: url, display: display)
        guard let lock else { return (diagnostics, nil) }
        var shipped = lock.shipped(lockFile: display)
        shipped.staged = staged
        return (shipped.check(against: bundle), shipped.names)
    }

    /// Reads the spec's `model`, confined to the spec's folder unless allowed otherwise.
    func loadBundle(for spec: ChainSpec, specDirectory: URL) -> (ModelBundle?, [Diagnostic]) {
        guard let model = spec.model else { return (nil, []) }
        let url = URL(fileURLWithPath: model.value, relativeTo: specDirectory).standardizedFileURL
        if let problem = confinementProblem(url, specDirectory: specDirectory, what: "model") {
            return (nil, [Diagnostic(.unreadableModelBundle, problem, at: model.location)])
        }
        switch FileAccess.kind(at: url.path) {
        case .failure(let problem):
            return (nil, [Diagnostic(.unreadableModelBundle, "cannot read the model bundle '\(model.value)': it \(problem.reason)", at: model.location)])
        case .success(.directory):
            break
        case .success(.regular):
            return (nil, [Diagnostic(.unreadableModelBundle, "the model '\(model.value)' is a file, not an .xcdatamodeld bundle", at: model.location)])
        case .success(.other(let kind)):
            return (nil, [Diagnostic(.unreadableModelBundle, "the model '\(model.value)' is \(kind), not an .xcdatamodeld bundle", at: model.location)])
        }
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let read = ModelBundleReader().read(bundleAt: url, displayPath: display)
        var diagnostics = read.diagnostics
        if read.bundle == nil, !diagnostics.contains(where: { $0.code == .unreadableModelBundle }) {
            diagnostics.append(Diagnostic(.unreadableModelBundle, "the model bundle '\(model.value)' cannot be used", at: model.location))
        }
        return (read.bundle, diagnostics)
    }

    /// A message when `url` lies outside the spec's folder (symlinks resolved) and that is not allowed.
    func confinementProblem(_ url: URL, specDirectory: URL, what: String) -> String? {
        guard !options.allowOutsideSpecDirectory else { return nil }
        guard case .success(let base) = FileAccess.canonicalPath(specDirectory.path) else { return nil }
        switch FileAccess.canonicalPath(url.path) {
        case .success(let resolved):
            if resolved == base || resolved.hasPrefix(base.hasSuffix("/") ? base : base + "/") { return nil }
            return "the \(what) '\(url.path)' lies outside the spec's folder; pass --allow-outside to read it"
        case .failure(.symlinkLoop):
            return "the \(what) path '\(url.path)' is a symbolic link loop"
        case .failure:
            return nil // reported as missing by the reader
        }
    }
}

/// Recognises SwiftData sources given where a spec is expected.
package enum SwiftSourceLocator {
    /// A `.swift` file, or a folder that is no model bundle, model version or compiled model.
    package static func isSwiftSource(_ url: URL) -> Bool {
        let url = url.standardizedFileURL
        if url.pathExtension == "swift" { return true }
        guard !["xcdatamodeld", "xcdatamodel", "momd", "xcmappingmodel"].contains(url.pathExtension) else { return false }
        guard case .success(.directory) = FileAccess.kind(at: url.path) else { return false }
        return true
    }
}

/// Recognises model bundles given where a spec is expected.
package enum ModelBundleLocator {
    /// By name: whatever ends in `.xcdatamodeld` is read as a bundle, so a regular file (or a
    /// missing path) of that name gets the bundle reader's CP111, as with `inspect`, rather
    /// than being read as a spec.
    package static func isBundle(_ url: URL) -> Bool {
        url.standardizedFileURL.pathExtension == "xcdatamodeld"
    }
}

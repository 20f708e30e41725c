import ChainPlanCore
import Foundation

/// The outcome of reading an `.xcdatamodeld` bundle.
package struct ModelBundleReadResult: Sendable, Hashable {
    /// The bundle, or nil when it cannot be used at all (CP111).
    package var bundle: ModelBundle?
    /// Every finding, sorted.
    package var diagnostics: [Diagnostic]

    package init(bundle: ModelBundle?, diagnostics: [Diagnostic]) {
        self.bundle = bundle
        self.diagnostics = diagnostics
    }
}

/// Reads an `.xcdatamodeld` bundle directory: every `<Version>.xcdatamodel`, in natural version
/// order, and `.xccurrentversion`.
///
/// - Bundle missing, not a directory, unreadable, without versions, with more than
///   `maxVersions` of them or more than `maxTotalBytes` of model files: CP111 and no bundle.
/// - A version folder with binary `elements`/`layout` and no `contents`: a legacy version
///   (`isLegacyFormat`) and CP112; its `elements` keyed archive is decoded when possible (same
///   XDPM classes as mapping-model snapshots), else the model is nil; the other versions still load.
/// - A version whose `contents` cannot be read or parsed: CP118, the version is kept with a nil
///   model. Semantic findings of a parsed model (CP115–CP117) keep the model.
/// - `.xccurrentversion` naming a missing version: CP114. Missing, empty or unreadable with
///   several versions: CP113 and no current version; with a single version, that version.
///
/// Symbolic links inside the bundle are followed only when their target stays inside the
/// bundle (a loop is reported, not followed). Every file read is bounded.
package struct ModelBundleReader: Sendable {
    /// The default bound on the number of versions read from one bundle.
    package static let defaultMaxVersions = 20_000
    /// The default bound on the total size of a bundle's model files (`contents`, or a legacy
    /// version's `elements`): 512 MiB.
    package static let defaultMaxTotalBytes = 512 << 20
    /// A bundle of two or three versions is read in parallel from this many bytes of model files.
    static let parallelBytes = 64 << 10
    /// `.xccurrentversion` files larger than this are not read.
    package static let maxCurrentVersionBytes = 1 << 20

    /// Size limit for each `contents` file.
    package var maxContentsBytes: Int
    /// Bundles with more versions than this are refused (CP111).
    package var maxVersions: Int
    /// Bundles whose model files (`contents`, legacy `elements`) add up to more than this are refused (CP111).
    package var maxTotalBytes: Int
    /// Read versions in parallel (the result does not depend on it).
    package var concurrent: Bool

    package init(maxContentsBytes: Int = ModelContentsParser.defaultMaxBytes,
                maxVersions: Int = ModelBundleReader.defaultMaxVersions,
                maxTotalBytes: Int = ModelBundleReader.defaultMaxTotalBytes,
                concurrent: Bool = true) {
        self.maxContentsBytes = maxContentsBytes
        self.maxVersions = maxVersions
        self.maxTotalBytes = maxTotalBytes
        self.concurrent = concurrent
    }

    /// Reads the bundle at `url`. `displayPath` is how the bundle is named in diagnostics and in
    /// `ModelBundle.path`; files inside it are shown as `displayPath/<Version>.xcdatamodel/contents`.
    package func read(bundleAt url: URL, displayPath: String) -> ModelBundleReadResult {
        read(bundleAt: url, displayPath: displayPath, deriving: { _ in () }).result
    }

    /// `read(bundleAt:displayPath:)`, and `derive` applied to every version as soon as it is
    /// read, on the same core (so work on each version overlaps with reading the others):
    /// `derived[i]` belongs to `result.bundle?.versions[i]` (empty without a bundle).
    package func read<Derived: Sendable>(bundleAt url: URL, displayPath: String,
                                         deriving derive: @escaping @Sendable (ModelVersion) -> Derived)
        -> (result: ModelBundleReadResult, derived: [Derived]) {
        func unusable(_ message: String) -> (result: ModelBundleReadResult, derived: [Derived]) {
            (ModelBundleReadResult(bundle: nil, diagnostics: [
                Diagnostic(.unreadableModelBundle, message, at: SourceLocation(file: displayPath)),
            ]), [])
        }
        let root: String
        switch ModelFiles.canonicalPath(url.path) {
        case .failure(let failure): return unusable("the model bundle '\(displayPath)' \(failure.reason)")
        case .success(let path): root = path
        }
        guard ModelFiles.kind(at: root) == .directory else {
            return unusable("the model bundle '\(displayPath)' is not a directory")
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: root)
        } catch {
            return unusable("the model bundle '\(displayPath)' cannot be listed: \(error.localizedDescription)")
        }
        let suffix = ".xcdatamodel"
        var names: [String] = []
        for entry in entries where entry.hasSuffix(suffix) && !entry.hasPrefix(".") && entry.count > suffix.count {
            names.append(String(entry.dropLast(suffix.count)))
        }
        if names.count > maxVersions {
            return unusable("the model bundle '\(displayPath)' has \(names.count) versions, over the limit of \(maxVersions)")
        }
        if names.isEmpty {
            return unusable("the model bundle '\(displayPath)' holds no '.xcdatamodel' versions")
        }

        let ordered = VersionOrder.sorted(names)
        // Bound the whole bundle, not only each file: parsed models take several times their size.
        var totalBytes = 0
        for name in ordered {
            totalBytes += Self.contentsSize(of: name, root: root)
            if totalBytes > maxTotalBytes {
                return unusable("the model bundle '\(displayPath)' holds more than \(maxTotalBytes) bytes of model files (the limit)")
            }
        }

        let parser = ModelContentsParser(maxBytes: maxContentsBytes)
        // Versions are independent: read them on all cores, then assemble in order.
        let read: @Sendable (String) -> (ModelVersion, [Diagnostic], Derived) = { name in
            let (version, found) = readVersion(named: name, root: root, displayPath: displayPath, parser: parser)
            return (version, found, derive(version))
        }
        // Two or three versions in parallel only when they are large enough to repay the threads.
        let parallel = concurrent && ordered.count >= 2 && (ordered.count >= 4 || totalBytes >= Self.parallelBytes)
        let results = parallel ? Parallel.map(ordered, read) : ordered.map(read)
        var diagnostics: [Diagnostic] = []
        var versions: [ModelVersion] = []
        var derived: [Derived] = []
        versions.reserveCapacity(ordered.count)
        derived.reserveCapacity(ordered.count)
        for (version, found, value) in results {
            versions.append(version)
            diagnostics += found
            derived.append(value)
        }

        let (current, currentDiagnostics) = currentVersion(root: root, displayPath: displayPath, versions: versions)
        diagnostics += currentDiagnostics

        var bundleName = URL(fileURLWithPath: root).lastPathComponent
        if bundleName.hasSuffix(".xcdatamodeld") { bundleName = String(bundleName.dropLast(".xcdatamodeld".count)) }
        let bundle = ModelBundle(name: bundleName, path: displayPath, versions: versions, currentVersion: current)
        return (ModelBundleReadResult(bundle: bundle, diagnostics: diagnostics.sorted()), derived)
    }

    /// The size of the model file the reader would read for a version (0 when it would read
    /// none): its `contents`, or for a legacy version without one, its binary `elements` archive.
    private static func contentsSize(of name: String, root: String) -> Int {
        guard case .success(let folder) = ModelFiles.resolveInside("\(root)/\(name).xcdatamodel", root: root) else { return 0 }
        let file = ModelFiles.kind(at: "\(folder)/contents") == .missing ? "elements" : "contents"
        guard case .success(let path) = ModelFiles.resolveInside("\(folder)/\(file)", root: root),
              case .regular(let size) = ModelFiles.kind(at: path) else { return 0 }
        return size
    }

    /// Reads one version folder.
    private func readVersion(named name: String, root: String, displayPath: String,
                             parser: ModelContentsParser) -> (ModelVersion, [Diagnostic]) {
        let folderDisplay = "\(displayPath)/\(name).xcdatamodel"
        let contentsDisplay = "\(folderDisplay)/contents"
        func failed(_ message: String, file: String) -> (ModelVersion, [Diagnostic]) {
            (ModelVersion(name: name, path: contentsDisplay, model: nil),
             [Diagnostic(.malformedModelXML, message, at: SourceLocation(file: file), versions: [name])])
        }

        let folder: String
        switch ModelFiles.resolveInside("\(root)/\(name).xcdatamodel", root: root) {
        case .failure(let failure): return failed("the version folder '\(name).xcdatamodel' \(failure.reason)", file: folderDisplay)
        case .success(let path): folder = path
        }
        guard ModelFiles.kind(at: folder) == .directory else {
            return failed("the version folder '\(name).xcdatamodel' is not a directory", file: folderDisplay)
        }

        let contentsPath = "\(folder)/contents"
        if ModelFiles.kind(at: contentsPath) == .missing {
            let isLegacy = ModelFiles.kind(at: "\(folder)/elements") != .missing
                || ModelFiles.kind(at: "\(folder)/layout") != .missing
            if isLegacy {
                // The binary `elements` file is a keyed archive of the same XDPM classes Xcode embeds
                // in mapping models; decode it with the snapshot decoder when it can be read.
                var model: ObjectModel?
                if case .success(let path) = ModelFiles.resolveInside("\(folder)/elements", root: root),
                   case .success(let data) = ModelFiles.readRegularFile(at: path, maxBytes: maxContentsBytes) {
                    model = try? ModelSnapshotDecoder.decode(data).model
                }
                let version = ModelVersion(name: name, path: folderDisplay, isLegacyFormat: true, model: model)
                return (version, [.legacyModelFormat(name, decoded: model != nil, at: SourceLocation(file: folderDisplay))])
            }
            return failed("the version folder '\(name).xcdatamodel' has no 'contents' file", file: folderDisplay)
        }
        let resolvedContents: String
        switch ModelFiles.resolveInside(contentsPath, root: root) {
        case .failure(let failure): return failed("'contents' \(failure.reason)", file: contentsDisplay)
        case .success(let path): resolvedContents = path
        }
        let data: Data
        switch ModelFiles.readRegularFile(at: resolvedContents, maxBytes: maxContentsBytes) {
        case .failure(let failure): return failed("'contents' \(failure.reason)", file: contentsDisplay)
        case .success(let bytes): data = bytes
        }
        let result = parser.parse(data, file: contentsDisplay, version: name)
        return (ModelVersion(name: name, path: contentsDisplay, model: result.model), result.diagnostics)
    }

    /// The current version and the findings about `.xccurrentversion`.
    private func currentVersion(root: String, displayPath: String,
                                versions: [ModelVersion]) -> (String?, [Diagnostic]) {
        let file = "\(displayPath)/.xccurrentversion"
        let single = versions.count == 1 ? versions[0].name : nil
        func unspecified(_ why: String, at location: SourceLocation) -> (String?, [Diagnostic]) {
            if let single { return (single, []) }
            return (nil, [.noCurrentVersion(why, versions: versions.count, at: location)])
        }
        func unreadable(_ why: String, line: Int? = nil) -> (String?, [Diagnostic]) {
            return (single, [.unreadableCurrentVersion(why, at: SourceLocation(file: file, line: line))])
        }

        let path = "\(root)/.xccurrentversion"
        if ModelFiles.kind(at: path) == .missing {
            return unspecified("there is no '.xccurrentversion'", at: SourceLocation(file: displayPath))
        }
        let resolved: String
        switch ModelFiles.resolveInside(path, root: root) {
        case .failure(let failure): return unreadable(failure.reason)
        case .success(let target): resolved = target
        }
        let data: Data
        switch ModelFiles.readRegularFile(at: resolved, maxBytes: Self.maxCurrentVersionBytes) {
        case .failure(let failure): return unreadable(failure.reason)
        case .success(let bytes): data = bytes
        }
        switch CurrentVersionFile.parse(data) {
        case .invalid(let why, let line):
            return unreadable(why, line: line)
        case .absent:
            return unspecified("'.xccurrentversion' does not name a version", at: SourceLocation(file: file))
        case .name(let raw, let line):
            let name = raw.hasSuffix(".xcdatamodel") ? String(raw.dropLast(".xcdatamodel".count)) : raw
            if versions.contains(where: { $0.name == name }) { return (name, []) }
            let hint = versions.count <= 1_000 ? NameSuggestions.nearest(to: name, among: versions.map(\.name), limit: 1).first : nil
            return (nil, [.missingCurrentVersion(name, hint: hint, at: SourceLocation(file: file, line: line))])
        }
    }
}

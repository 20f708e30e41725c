import ChainPlanCore
import ChainPlanReaders
import Foundation

extension ChainPlanner {
    /// Plans whatever `url` is: a chain spec, or an `.xcdatamodeld` bundle given directly
    /// (then the chain is every version in natural version order, with CP110).
    public func plan(inputAt url: URL) -> ChainReport { planWithBundle(inputAt: url).report }

    /// Plans whatever `url` is, and returns the bundle it read.
    package func planWithBundle(inputAt url: URL) -> PlanOutcome {
        if ModelBundleLocator.isBundle(url) { return planWithBundle(bundleAt: url) }
        return planWithBundle(specAt: url)
    }

    /// Plans a bundle without a spec: the chain is inferred from version names.
    public func plan(bundleAt url: URL) -> ChainReport { planWithBundle(bundleAt: url).report }

    package func planWithBundle(bundleAt url: URL) -> PlanOutcome {
        let display = DisplayPath.make(url, relativeTo: options.baseDirectory)
        let folder = url.deletingLastPathComponent()
        // Mapping models are found and read while the bundle is read; the spec they are
        // located against is the inferred one, which names no mapping paths.
        let noPaths = ChainSpec.inferred(versions: [], file: display)
        let (read, mappings) = Parallel.both(
            { ModelBundleReader().read(bundleAt: url, displayPath: display) },
            { self.loadMappingModels(under: folder, spec: noPaths, specDirectory: folder) })
        guard let bundle = read.bundle else {
            return PlanOutcome(report: ChainReport.unusable(spec: display, diagnostics: read.diagnostics))
        }
        let spec = ChainSpec.inferred(versions: bundle.versionNames, file: display)
        var outcome = self.outcome(spec: spec, bundle: bundle, isInferred: true, mappingModels: mappings)
        outcome.report.setFindings(outcome.report.diagnostics + read.diagnostics + lockFindings(in: folder, bundle: bundle).findings)
        return outcome
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

/// Recognises model bundles given where a spec is expected.
package enum ModelBundleLocator {
    /// By name: whatever ends in `.xcdatamodeld` is read as a bundle, so a regular file (or a
    /// missing path) of that name gets the bundle reader's CP111, as with `inspect`, rather
    /// than being read as a spec.
    package static func isBundle(_ url: URL) -> Bool {
        url.standardizedFileURL.pathExtension == "xcdatamodeld"
    }
}

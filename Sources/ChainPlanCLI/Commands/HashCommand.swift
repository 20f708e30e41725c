import ArgumentParser
import ChainPlanCore
import ChainPlanHashing
import ChainPlanKit
import ChainPlanOutput
import ChainPlanPlanning
import ChainPlanReaders
import ChainPlanStore
import ChainPlanSwiftSource
import Foundation

/// `chainplan hash BUNDLE`: Core Data's own version hashes, computed from the model XML.
struct HashCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hash",
        abstract: "Print Core Data's entity version hashes, checksum and digest of each model version.",
        discussion: """
            Computes, exactly as Core Data does, every entity's version hash (base64 of 32 bytes), the \
            model's versionChecksum (what NSManagedObjectModelReference, VersionInfo.plist and a \
            store's NSStoreModelVersionChecksumKey hold) and the hashes digest \
            (NSStoreModelVersionHashesDigest). Two versions with equal entity hashes are one version \
            to Core Data: no migration runs between them. A compiled .momd prints what its \
            VersionInfo.plist records. With --store, prints what a store's metadata records \
            (recomputing checksum and digest when it lacks them) and, given a bundle, which \
            versions it matches. --format corestore prints CoreStore's VersionLock literal. \
            Hashes resting on a rule read only from Core Data's code are marked unverified.

            Given a Swift file or a folder of Swift sources instead, reads SwiftData's \
            VersionedSchema types (or, without any, the @Model classes ModelContainer(for:) names) \
            without a build, maps each to the Core Data model SwiftData builds, and prints each \
            schema's hashes under its type name, with its versionIdentifier. What cannot be read \
            without type-checking is reported (CP602) and never guessed; hashes resting on a rule \
            the SwiftData reference leaves open are marked unverified.

            Examples:
              chainplan hash App/Model.xcdatamodeld
              chainplan hash App/Models --format json
              chainplan hash App/Model.xcdatamodeld --version "Model 3" --properties
              chainplan hash --store user.sqlite App/Model.xcdatamodeld --format json

            Exit status: 0 ok, 2 unusable input or usage.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, corestore
    }

    @Argument(help: ArgumentHelp("An .xcdatamodeld bundle, a compiled .momd, or a SwiftData Swift file or folder.", valueName: "bundle"))
    var bundle: String?

    @Option(name: .customLong("version"), help: ArgumentHelp("Only this version (repeatable).", valueName: "name"))
    var versionNames: [String] = []

    @Option(help: ArgumentHelp("A SQLite store: print the hashes its metadata records.", valueName: "file"))
    var store: String?

    @Flag(help: "Also print every property's hash.")
    var properties = false

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(name: [.customShort("o"), .long], help: "Write the output to this file instead of standard output.")
    var output: String?

    @OptionGroup var color: ColorOptions

    @OptionGroup var swift: SwiftConfigurationOptions

    func validate() throws {
        if bundle == nil, store == nil { throw ValidationError("name a bundle, or a store with --store") }
        if store != nil, format == .corestore { throw ValidationError("--format corestore needs a bundle, not a store") }
        if store != nil, !versionNames.isEmpty { throw ValidationError("--version does not apply to --store") }
    }

    func run() async throws {
        let report = try makeReport()
        let data: Data
        switch format {
        case .text: data = Data(report.text().utf8)
        case .json: data = report.json()
        case .corestore: data = Data(report.coreStore().utf8)
        }
        try FileHandleOutput.write(data, to: output)
    }

    func makeReport() throws -> HashReport {
        if let bundle, store == nil, SwiftSourceLocator.isSwiftSource(URL(fileURLWithPath: bundle)) {
            return try swiftReport(bundle)
        }
        let versions = try bundle.map(bundleVersions) ?? []
        guard let store else { return HashReport(versions: versions.map(\.report)) }
        let url = URL(fileURLWithPath: store)
        let shown = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
        let metadata: StoreMetadata
        do {
            metadata = try StoreReader().read(storeAt: url.path, displayPath: shown)
        } catch {
            throw UsageError("\(error)")
        }
        guard !metadata.modelVersionHashes.isEmpty else {
            throw UsageError("store '\(shown)' records no entity version hashes")
        }
        let recorded = metadata.modelVersionHashes
        var match: StoreVersionMatch?
        if bundle != nil {
            match = StoreVersionMatch(storeHashes: recorded, candidates: versions.map { ($0.report.version, $0.entities) })
        }
        return HashReport(store: HashReport.Store(
            path: shown,
            checksum: metadata.modelVersionChecksum ?? VersionHasher.checksum(recorded),
            digest: metadata.modelVersionHashesDigest ?? VersionHasher.digest(recorded),
            recordsChecksum: metadata.modelVersionChecksum != nil, recordsDigest: metadata.modelVersionHashesDigest != nil,
            entities: recorded.mapValues { $0.base64EncodedString() },
            matches: match?.matches, nearest: match?.nearest))
    }

    /// Every schema version of the SwiftData sources at `path`: its hashes under its type name,
    /// with its identifier. The reader's findings go to standard error; unusable input exits 2.
    func swiftReport(_ path: String) throws -> HashReport {
        let url = URL(fileURLWithPath: path)
        let shown = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
        let (project, hashed) = SwiftDataPipeline.hash(sourcesAt: url, displayPath: shown, withProperties: properties,
                                                                  configuration: swift.configuration)
        if project.diagnostics.hasUnusableInput {
            throw UsageError(findings: project.diagnostics.filter { $0.code.unusableInput && $0.severity == .error })
        }
        let color = ColorDecision.useColor(noColorFlag: self.color.noColor, toFile: false,
                                           noColorEnvironment: CLIEnvironment.value("NO_COLOR"),
                                           isTerminal: OutputCapture.current == nil && isatty(STDERR_FILENO) == 1)
        for diagnostic in project.diagnostics {
            FileHandleOutput.standardError.write(TextReporter.line(for: diagnostic, color: color) + "\n")
        }
        let versions = hashed.map { entry -> HashReport.Version in
            var version = HashReport.Version(entry.hashes, withProperties: properties)
            version.identifier = entry.version.identifier ?? "unknown"
            version.unverified = (entry.version.unverified + version.unverified)
            if version.failure != nil { version.unverified = [] }
            return version
        }
        return HashReport(versions: try chosen(versions, named: \.version))
    }

    /// Every requested version's hashes, from an `.xcdatamodeld` or a `.momd`.
    func bundleVersions(_ path: String) throws -> [(report: HashReport.Version, entities: [String: Data]?)] {
        let url = URL(fileURLWithPath: path)
        let shown = DisplayPath.make(url, relativeTo: DisplayPath.currentDirectory)
        var all: [(report: HashReport.Version, entities: [String: Data]?)]
        if url.pathExtension == "momd" {
            let info: CompiledModelInfo
            do {
                info = try CompiledModelInfo.read(momdAt: url.path, displayPath: shown)
            } catch {
                throw UsageError("\(error)")
            }
            all = VersionOrder.sorted(info.versionNames).map { name in
                let hashes = info.versionHashes[name] ?? [:]
                return (HashReport.Version(version: name, checksum: info.versionChecksums[name] ?? VersionHasher.checksum(hashes),
                                           digest: VersionHasher.digest(hashes), entities: hashes.mapValues { $0.base64EncodedString() }),
                        hashes)
            }
        } else {
            // Each version hashed (and its report entry made) right after it is read, on the core
            // that read it.
            let properties = properties
            let (read, hashed) = ModelBundleReader().read(bundleAt: url, displayPath: shown) { version in
                let hashes = VersionHashes(version, withProperties: properties)
                return (report: HashReport.Version(hashes, withProperties: properties), entities: hashes.hashes?.entities)
            }
            guard read.bundle != nil else {
                throw UsageError(read.diagnostics.first.map { "\($0.location?.description ?? shown): \($0.message)" } ?? "cannot read '\(shown)'")
            }
            all = hashed
        }
        return try chosen(all, named: \.report.version)
    }

    /// The versions `--version` names, in its order (all of them without it); a name that is not
    /// one of them is a usage error with the nearest names.
    func chosen<Version>(_ all: [Version], named name: (Version) -> String) throws -> [Version] {
        guard !versionNames.isEmpty else { return all }
        return try versionNames.map { wanted in
            guard let version = all.first(where: { name($0) == wanted }) else {
                throw UsageError(VersionHint.notInBundle(wanted, versions: all.map(name)))
            }
            return version
        }
    }
}

import Foundation

/// Finds the model bundle a bare CoreStore chain (`["Model", "Model 2"]`, no `model:`) means:
/// the `.xcdatamodeld` under the spec's folder whose version folders include every version the
/// chain names. Only folder names are read (never model contents); the walk follows no symbolic
/// link, skips hidden folders and build output, and stops after a bounded number of entries, so
/// a huge or hostile tree cannot hang it.
///
///     MyApp/chain.json ["Model", "Model 2"]; MyApp/Sources/Model.xcdatamodeld holds Model, Model 2, Model 3
///     → .found("Sources/Model.xcdatamodeld")
package enum ModelBundleDiscovery {
    package enum Outcome: Sendable, Equatable {
        /// The one bundle that holds every version, relative to the folder searched.
        case found(String)
        /// No bundle holds every version; the bundles seen (relative paths), at most a few.
        case none(seen: [String])
        /// Several bundles hold every version (relative paths).
        case several([String])
    }

    /// Folders never entered: version control, build output, dependencies.
    package static let skipped: Set<String> = [".build", "build", "DerivedData", "Pods", "Carthage", "node_modules"]

    package static func find(holding versions: [String], under folder: URL, maxDepth: Int = 8, maxEntries: Int = 50_000) -> Outcome {
        let wanted = Set(versions)
        var matches: [String] = []
        var seen: [String] = []
        var budget = maxEntries
        var queue: [(relative: String, depth: Int)] = [("", 0)]
        var head = 0
        // Paths are joined as strings (the names come from the directory: no `/` in them).
        let root = folder.path
        func path(_ relative: String) -> String { relative.isEmpty ? root : root + "/" + relative }
        while head < queue.count, budget > 0 {
            let (relative, depth) = queue[head]
            head += 1
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path(relative)) else { continue }
            for name in names.sorted() {
                budget -= 1
                if budget <= 0 { break }
                guard !name.hasPrefix("."), !skipped.contains(name) else { continue }
                let child = relative.isEmpty ? name : relative + "/" + name
                guard ModelFiles.kind(at: path(child)) == .directory else { continue }
                if name.hasSuffix(".xcdatamodeld") {
                    seen.append(child)
                    let inside = (try? FileManager.default.contentsOfDirectory(atPath: path(child))) ?? []
                    let held = Set(inside.filter { $0.hasSuffix(".xcdatamodel") }.map { String($0.dropLast(".xcdatamodel".count)) })
                    if wanted.isSubset(of: held) { matches.append(child) }
                } else if depth + 1 < maxDepth {
                    queue.append((child, depth + 1))
                }
            }
        }
        switch matches.count {
        case 1: return .found(matches[0])
        case 0: return .none(seen: Array(seen.prefix(5)))
        default: return .several(matches)
        }
    }
}

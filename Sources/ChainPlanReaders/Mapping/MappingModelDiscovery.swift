import Foundation

/// Finds `*.xcmappingmodel` folders below a directory.
package enum MappingModelDiscovery {
    /// What a search found.
    package struct Result: Sendable, Hashable {
        /// The mapping model folders, sorted by path.
        package var urls: [URL]
        /// True when a limit (folders visited or models found) stopped the search early.
        package var isTruncated: Bool

        package init(urls: [URL], isTruncated: Bool) {
            self.urls = urls
            self.isTruncated = isTruncated
        }
    }

    /// Searches `directory` breadth-first, at most `maxDepth` folder levels down.
    ///
    /// Symbolic links are never followed (neither to folders nor as matches), hidden
    /// folders (`.git`, `.build`, …) and the insides of `.xcmappingmodel` and
    /// `.xcdatamodeld` packages are skipped. The search stops after `maxCount` models or
    /// `maxDirectories` visited folders and says so with `isTruncated`. The order is
    /// deterministic: results are sorted by path.
    package static func find(in directory: URL, maxDepth: Int = 8, maxCount: Int = 1_000,
                            maxDirectories: Int = 50_000) -> Result {
        let manager = FileManager.default
        var found: [URL] = []
        var truncated = false
        var visited = 0
        var level: [URL] = [directory.standardizedFileURL]
        var depth = 0
        search: while !level.isEmpty {
            var nextLevel: [URL] = []
            for folder in level {
                visited += 1
                if visited > maxDirectories {
                    truncated = true
                    break search
                }
                guard let names = try? manager.contentsOfDirectory(atPath: folder.path) else { continue }
                for name in names.sorted() where !name.hasPrefix(".") {
                    let url = folder.appendingPathComponent(name)
                    guard let attributes = try? manager.attributesOfItem(atPath: url.path),
                          let type = attributes[.type] as? FileAttributeType, type == .typeDirectory
                    else { continue } // symbolic links report .typeSymbolicLink and are skipped
                    if name.hasSuffix(".xcmappingmodel") {
                        if found.count >= maxCount {
                            truncated = true
                            break search
                        }
                        found.append(url)
                    } else if !name.hasSuffix(".xcdatamodeld"), !name.hasSuffix(".xcdatamodel"), depth < maxDepth {
                        nextLevel.append(url)
                    }
                }
            }
            level = nextLevel
            depth += 1
        }
        return Result(urls: found.sorted { $0.path < $1.path }, isTruncated: truncated)
    }
}

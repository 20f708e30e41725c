import Foundation
import Testing

/// `Docs/architecture.md` draws the target graph of `Package.swift`; the two must list the
/// same edges between the package's own targets, so the picture cannot drift from the build.
struct ArchitectureDocTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // ChainPlanKitTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    struct Edge: Hashable, Comparable, CustomStringConvertible {
        var from: String
        var to: String
        var description: String { "\(from) --> \(to)" }
        static func < (lhs: Edge, rhs: Edge) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }
    }

    /// Edges between targets of this package: every declaration except test targets, with its
    /// dependencies given by name (`.product(…)` entries are other packages and are skipped).
    static func packageEdges(_ text: String) -> Set<Edge> {
        var edges: Set<Edge> = []
        let markers = [".target(", ".executableTarget(", ".systemLibrary(", ".testTarget("]
        var starts: [(String.Index, String)] = []
        for marker in markers {
            var from = text.startIndex
            while let found = text.range(of: marker, range: from..<text.endIndex) {
                starts.append((found.lowerBound, marker))
                from = found.upperBound
            }
        }
        starts.sort { $0.0 < $1.0 }
        var chunks: [Substring] = []
        for (offset, start) in starts.enumerated() where start.1 != ".testTarget(" {
            let end = offset + 1 < starts.count ? starts[offset + 1].0 : text.endIndex
            chunks.append(text[start.0..<end])
        }
        for chunk in chunks {
            guard let name = firstQuoted(after: "name:", in: chunk) else { continue }
            guard let start = chunk.range(of: "dependencies:"),
                  let open = chunk[start.upperBound...].firstIndex(of: "["),
                  let close = chunk[open...].firstIndex(of: "]") else { continue }
            var list = String(chunk[chunk.index(after: open)..<close])
            while let product = list.range(of: "product("), let end = list[product.upperBound...].firstIndex(of: ")") {
                list.removeSubrange(product.lowerBound...end)
            }
            for dependency in quotedStrings(in: list) { edges.insert(Edge(from: name, to: dependency)) }
        }
        return edges
    }

    /// Edges drawn in the doc's Mermaid block: lines `A --> B`.
    static func documentEdges(_ text: String) -> Set<Edge> {
        var edges: Set<Edge> = []
        var inDiagram = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                inDiagram = trimmed == "```mermaid"
                continue
            }
            guard inDiagram else { continue }
            let parts = trimmed.components(separatedBy: "-->").map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty { edges.insert(Edge(from: parts[0], to: parts[1])) }
        }
        return edges
    }

    static func quotedStrings(in text: String) -> [String] {
        text.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    }

    static func firstQuoted(after key: String, in text: Substring) -> String? {
        guard let range = text.range(of: key) else { return nil }
        return quotedStrings(in: String(text[range.upperBound...])).first
    }

    @Test("Docs/architecture.md draws exactly the target edges of Package.swift")
    func documentMatchesPackage() throws {
        let package = try? String(contentsOf: Self.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let document = try? String(contentsOf: Self.root.appendingPathComponent("Docs/architecture.md"), encoding: .utf8)
        let packageText = try #require(package, "Package.swift is missing")
        let documentText = try #require(document, "Docs/architecture.md is missing")
        let built = Self.packageEdges(packageText)
        let drawn = Self.documentEdges(documentText)
        #expect(!built.isEmpty, "no target dependencies found in Package.swift")
        #expect(built.subtracting(drawn).sorted() == [], "in Package.swift but not drawn in Docs/architecture.md")
        #expect(drawn.subtracting(built).sorted() == [], "drawn in Docs/architecture.md but not in Package.swift")
    }
}

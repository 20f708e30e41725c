import ChainPlanCore
/// Applies a decomposition's edits to a version's `contents` XML as text, line by line, so the
/// written model keeps its neighbours' dialect (Xcode's one element per line, its attribute order
/// and indentation): a restored attribute's element is copied verbatim from the source version's
/// file and inserted where Xcode keeps it (before the first attribute whose name sorts after it);
/// `optional="YES"` is set right after the attribute's name. Nil when an element is not found.
/// Example: `Aircraft V4`'s contents with `Aircraft.flightData` restored from `Aircraft V2` is
/// `Aircraft V3`'s file (Chains/aircraft-staged).
enum ModelContentsEditing {
    static func apply(_ edits: [ModelEdit], to base: String, sources: (String) -> String?) -> String? {
        var lines = base.components(separatedBy: "\n")
        for edit in edits {
            guard let entity = entityRange(edit.entity, in: lines) else { return nil }
            switch edit.kind {
            case .restoreAttribute:
                guard let version = edit.sourceVersion, let text = sources(version) else { return nil }
                let source = text.components(separatedBy: "\n")
                guard let sourceEntity = entityRange(edit.sourceEntity ?? edit.entity, in: source),
                      let element = attributeRange(edit.attribute, in: source, within: sourceEntity) else { return nil }
                let attributes = entity.dropFirst().filter { lines[$0].trimmingPrefixSpaces.hasPrefix("<attribute ") }
                if attributes.contains(where: { name(of: lines[$0]) == edit.attribute }) { return nil }
                let after = attributes.first { (name(of: lines[$0]) ?? "") > edit.attribute }
                let position = after ?? attributes.last.map { end(ofElementAt: $0, in: lines) + 1 } ?? entity.lowerBound + 1
                lines.insert(contentsOf: source[element], at: position)
            case .makeOptional:
                guard let element = attributeRange(edit.attribute, in: lines, within: entity) else { return nil }
                let line = lines[element.lowerBound]
                if line.contains(#" optional="NO""#) {
                    lines[element.lowerBound] = line.replacingOccurrences(of: #" optional="NO""#, with: #" optional="YES""#)
                } else if !line.contains(#" optional="YES""#) {
                    let attribute = #"name="\#(MarkupText.xml(edit.attribute))""#
                    guard let range = line.range(of: attribute) else { return nil }
                    lines[element.lowerBound] = line.replacingCharacters(in: range, with: attribute + #" optional="YES""#)
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The lines of `<entity name="…">` through its `</entity>`.
    private static func entityRange(_ entity: String, in lines: [String]) -> Range<Int>? {
        let opening = #"<entity name="\#(MarkupText.xml(entity))""#
        guard let start = lines.firstIndex(where: { $0.trimmingPrefixSpaces.hasPrefix(opening) }) else { return nil }
        if lines[start].hasSuffix("/>") { return start..<(start + 1) }
        guard let close = lines[start...].firstIndex(where: { $0.trimmingPrefixSpaces.hasPrefix("</entity>") }) else { return nil }
        return start..<(close + 1)
    }

    private static func attributeRange(_ attribute: String, in lines: [String], within entity: Range<Int>) -> Range<Int>? {
        guard let start = entity.first(where: { lines[$0].trimmingPrefixSpaces.hasPrefix("<attribute ") && name(of: lines[$0]) == attribute }) else { return nil }
        return start..<(end(ofElementAt: start, in: lines) + 1)
    }

    /// The last line of the element starting at `start` (itself when it closes on its line).
    private static func end(ofElementAt start: Int, in lines: [String]) -> Int {
        if lines[start].hasSuffix("/>") { return start }
        return lines[start...].firstIndex { $0.trimmingPrefixSpaces.hasPrefix("</attribute>") } ?? start
    }

    /// The unescaped `name="…"` of an element line.
    private static func name(of line: String) -> String? {
        guard let start = line.range(of: #" name=""#), let end = line[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(line[start.upperBound..<end]).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&apos;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
    }
}

private extension String {
    var trimmingPrefixSpaces: Substring { drop { $0 == " " || $0 == "\t" } }
}

extension StageDecomposer {
    /// Every intermediate version's `contents` text, from the bundle's files read by `contents`
    /// (version name → text); nil for a version whose edits do not apply.
    package static func contents(of decompositions: [Decomposition], reading contents: (String) -> String?) -> [(name: String, text: String?)] {
        decompositions.flatMap { decomposition in
            decomposition.intermediates.map { version in
                (version.name, contents(version.base).flatMap { ModelContentsEditing.apply(version.edits, to: $0, sources: contents) })
            }
        }
    }
}

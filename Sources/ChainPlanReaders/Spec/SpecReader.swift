import ChainPlanCore
import Foundation
import Yams

/// Reads chain specs (JSON or YAML) into `ChainSpec`, reporting every problem as CP100.
///
/// The reader is defensive: inputs come from pull requests. Files are size-checked before
/// they are read, must be regular files (a FIFO would block), must be UTF-8 (a UTF-8 BOM is
/// accepted), and pass `StructureGuard` before Yams composes them.
package struct SpecReader: Sendable {
    /// Largest spec accepted, in bytes.
    package var maxBytes: Int
    /// The codes an `accept` entry may name (the stages above this one declare them).
    package var codes: [DiagnosticCode]

    package init(maxBytes: Int = 16 << 20, codes: [DiagnosticCode]) {
        self.maxBytes = maxBytes
        self.codes = codes
    }

    /// The result of reading: a spec when the file could be interpreted, and every finding.
    package struct Result: Sendable {
        package var spec: ChainSpec?
        package var diagnostics: [Diagnostic]
    }

    /// Reads the spec file at `url`; `displayPath` is used in diagnostics.
    package func read(fileAt url: URL, displayPath: String) -> Result {
        switch FileAccess.readRegularFile(at: url, maxBytes: maxBytes) {
        case .success(let data):
            return read(data: data, displayPath: displayPath, syntax: SpecReader.syntax(forPath: url.path, data: data))
        case .failure(let problem):
            // Name the option that sets the limit, as the YAML path does.
            let detail = if case .tooLarge = problem { problem.description + " (--max-spec-bytes)" } else { problem.description }
            return Result(spec: nil, diagnostics: [
                Diagnostic(.unreadableSpec, "cannot read the spec: \(detail)", at: SourceLocation(file: displayPath)),
            ])
        }
    }

    /// The syntax implied by the file extension, or sniffed from the content when there is none.
    package static func syntax(forPath path: String, data: Data) -> SpecSyntax {
        let lowered = path.lowercased()
        if lowered.hasSuffix(".json") { return .json }
        if lowered.hasSuffix(".yaml") || lowered.hasSuffix(".yml") { return .yaml }
        // Sniff: JSON documents start with `{`, `[`, `"` or `null` and parse as JSON.
        let first = data.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF) }
        guard let first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
            || first == UInt8(ascii: "n")
        else { return .yaml }
        if (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil { return .json }
        return .yaml
    }

    /// Reads a spec from bytes.
    package func read(data: Data, displayPath: String, syntax: SpecSyntax) -> Result {
        let fileLocation = SourceLocation(file: displayPath)
        func fail(_ message: String, line: Int? = nil, column: Int? = nil) -> Result {
            Result(spec: nil, diagnostics: [
                Diagnostic(.unreadableSpec, message, at: SourceLocation(file: displayPath, line: line, column: column)),
            ])
        }
        let root: Node
        let byteCount: Int
        switch CheckedYAML.compose(data, syntax: syntax, what: "the spec", maxBytes: maxBytes, limitOption: "--max-spec-bytes") {
        case .failure(let failure):
            return fail(failure.message, line: failure.line, column: failure.column)
        case .success((nil, _)):
            return fail("the spec is empty (write null, [] or {} for a chain without progressive migration)")
        case .success((let composed?, let count)):
            root = composed
            byteCount = count
        }
        var interpreter = SpecInterpreter(file: displayPath, syntax: syntax, nodeBudget: max(64, byteCount), knownCodes: codes)
        let spec = interpreter.interpret(root)
        if interpreter.diagnostics.isEmpty, spec == nil {
            return Result(spec: nil, diagnostics: [Diagnostic(.unreadableSpec, "the spec has an unsupported structure", at: fileLocation)])
        }
        return Result(spec: spec, diagnostics: interpreter.diagnostics)
    }
}

/// Turns a composed YAML node tree into a `ChainSpec`, collecting a CP100 for every entry
/// that is not of the expected shape.
struct SpecInterpreter {
    let file: String
    let syntax: SpecSyntax
    /// How many nodes may be visited: a tree cannot have more nodes than the text has bytes,
    /// so exceeding it means aliases were expanded.
    var nodeBudget: Int
    /// The codes an `accept` entry may name.
    let knownCodes: [DiagnosticCode]
    var diagnostics: [Diagnostic] = []

    init(file: String, syntax: SpecSyntax, nodeBudget: Int, knownCodes: [DiagnosticCode]) {
        self.file = file
        self.syntax = syntax
        self.nodeBudget = nodeBudget
        self.knownCodes = knownCodes
    }

    mutating func interpret(_ root: Node) -> ChainSpec? {
        let rootLocation = location(of: root)
        if case .mapping(let mapping) = root, let chainValue = fullFormChain(mapping) {
            return interpretFullForm(mapping, chain: chainValue, rootLocation: rootLocation)
        }
        // `swiftdata` without `chain`: the plan's schemas are the chain (the loader fills it).
        if case .mapping(let mapping) = root, mapping.contains(where: { $0.key.scalar?.string == "swiftdata" && isNameLike($0.key) }) {
            return interpretFullForm(mapping, chain: nil, rootLocation: rootLocation)
        }
        var spec = ChainSpec(file: file, syntax: syntax, form: .empty, chainLocation: rootLocation)
        guard interpretChain(root, into: &spec) else { return nil }
        return spec
    }

    /// The `chain` value when `mapping` is the full form (its `chain` value is an array, a tree or null).
    private func fullFormChain(_ mapping: Node.Mapping) -> Node? {
        for (key, value) in mapping where key.scalar?.string == "chain" && isNameLike(key) {
            switch value {
            case .sequence, .mapping: return value
            case .scalar where isNull(value): return value
            default: return nil
            }
        }
        return nil
    }

    private mutating func interpretFullForm(_ mapping: Node.Mapping, chain: Node?, rootLocation: SourceLocation) -> ChainSpec? {
        var spec = ChainSpec(file: file, syntax: syntax, form: .empty, chainLocation: chain.map { location(of: $0) } ?? rootLocation)
        var seen: [String: SourceLocation] = [:]
        var chainOK = true
        for (key, value) in mapping {
            guard spend() else { return nil }
            guard let keyName = key.scalar?.string, isNameLike(key) else {
                report("keys of the spec must be strings", at: key)
                continue
            }
            if let first = seen[keyName] {
                report("key '\(keyName)' appears twice (first at \(first.lineColumn))", at: key)
                continue
            }
            seen[keyName] = location(of: key)
            switch keyName {
            case "chain":
                chainOK = interpretChain(value, into: &spec)
            case "model":
                spec.model = name(value, what: "model path")
            case "swiftdata":
                spec.swiftData = name(value, what: "SwiftData sources path")
            case "plan":
                spec.migrationPlan = name(value, what: "migration plan name")
            case "target":
                spec.target = name(value, what: "target version")
            case "mappings":
                interpretMappings(value, into: &spec)
            case "stages":
                interpretStages(value, into: &spec)
            case "accept":
                interpretAccept(value, into: &spec)
            case "$schema":
                _ = name(value, what: "$schema")
            case "deferredLightweightMigration":
                if case .scalar(let scalar) = value, scalar.style == .plain, ["true", "false"].contains(scalar.string) {
                    spec.deferredLightweightMigration = scalar.string == "true"
                } else {
                    report("deferredLightweightMigration must be true or false", at: value)
                }
            default:
                report("unknown key '\(keyName)'; the full form has chain, model, swiftdata, plan, target, mappings, stages, accept and deferredLightweightMigration", at: key)
            }
        }
        if let swiftData = spec.swiftData, spec.model != nil {
            diagnostics.append(Diagnostic(.unreadableSpec, "a spec names either model (an .xcdatamodeld bundle) or swiftdata (Swift sources), not both",
                                          at: swiftData.location))
            return nil
        }
        if let plan = spec.migrationPlan, spec.swiftData == nil {
            diagnostics.append(Diagnostic(.unreadableSpec, "plan names a SchemaMigrationPlan of the swiftdata sources; add swiftdata", at: plan.location))
        }
        return chainOK ? spec : nil
    }

    /// Fills the chain part of `spec` from `node`; false when the chain is unusable.
    private mutating func interpretChain(_ node: Node, into spec: inout ChainSpec) -> Bool {
        guard spend() else { return false }
        spec.chainLocation = location(of: node)
        switch node {
        case .scalar where isNull(node):
            spec.form = .empty
            return true
        case .scalar:
            guard let version = name(node, what: "version name") else { return false }
            spec.form = .single
            spec.arrayEntries = [version]
            return true
        case .sequence(let sequence):
            spec.form = sequence.isEmpty ? .empty : .array
            var ok = true
            for element in sequence {
                guard spend() else { return false }
                if let version = name(element, what: "version name") {
                    spec.arrayEntries.append(version)
                } else {
                    ok = false
                }
            }
            return ok
        case .mapping(let mapping):
            spec.form = mapping.isEmpty ? .empty : .tree
            var ok = true
            for (key, value) in mapping {
                guard spend() else { return false }
                let source = name(key, what: "source version")
                let destination = name(value, what: "destination version")
                if let source, let destination {
                    spec.treeEntries.append(ChainSpec.TreeEntry(source: source, destination: destination))
                } else {
                    ok = false
                }
            }
            return ok
        }
    }

    private mutating func interpretMappings(_ node: Node, into spec: inout ChainSpec) {
        guard let mapping = optionalMapping(node, else: "mappings must be an object of \"From -> To\": \"path.xcmappingmodel\"") else { return }
        var seen: [StepKey: SourceLocation] = [:]
        for (key, value) in mapping {
            guard spend() else { return }
            guard let stepText = name(key, what: "mapping step"), let path = name(value, what: "mapping model path"),
                  let step = step(stepText, at: key, what: "mapping step", seen: &seen) else { continue }
            spec.mappings.append(ChainSpec.MappingEntry(from: step.from, to: step.to, path: path.value, location: stepText.location,
                                                        pathLocation: path.location))
        }
    }

    /// The step a `"From -> To"` key names, or nil with a CP100 when it is not written so or
    /// repeats an earlier key, however written ("A -> B", "A→B"), as the full form's repeated keys.
    mutating func step(_ text: Located<String>, at key: Node, what: String, seen: inout [StepKey: SourceLocation]) -> StepKey? {
        guard let (from, to) = MappingStepKey.split(text.value) else {
            report("\(what) '\(text.value)' must be written \"From -> To\"", at: key)
            return nil
        }
        let step = StepKey(from: from, to: to)
        if let first = seen[step] {
            report("\(what) '\(from)' → '\(to)' appears twice (first at \(first.lineColumn))", at: key)
            return nil
        }
        seen[step] = text.location
        return step
    }

    /// `stages`: a list of `"From -> To"` steps to run as custom migration stages.
    private mutating func interpretStages(_ node: Node, into spec: inout ChainSpec) {
        if isNull(node) { return }
        guard case .sequence(let sequence) = node else {
            report("stages must be a list of \"From -> To\" steps to run as custom migration stages", at: node)
            return
        }
        for element in sequence {
            guard spend() else { return }
            guard let text = name(element, what: "stage step") else { continue }
            guard let (from, to) = MappingStepKey.split(text.value) else {
                report("stage step '\(text.value)' must be written \"From -> To\"", at: element)
                continue
            }
            spec.customStages.append(Located(StepKey(from: from, to: to), at: text.location))
        }
    }

    /// A version name (or other string value) at `node`, or nil with a CP100.
    mutating func name(_ node: Node, what: String) -> Located<String>? {
        guard case .scalar(let scalar) = node else {
            let shape = node.mapping != nil ? "an object" : "an array"
            report("expected a \(what) (a string), found \(shape)", at: node)
            return nil
        }
        if let tag = nonStringTag(scalar) {
            report("expected a \(what) (a string), found '\(scalar.string)' tagged \(tag); remove the tag", at: node)
            return nil
        }
        if isNull(node) {
            report("expected a \(what), found null", at: node)
            return nil
        }
        if syntax == .json, scalar.style == .plain {
            report("expected a \(what) (a JSON string), found '\(scalar.string)'; quote it", at: node)
            return nil
        }
        if scalar.string.isEmpty {
            report("a \(what) must not be empty", at: node)
            return nil
        }
        return Located(scalar.string, at: location(of: node))
    }

    /// The explicit tag of a scalar that is tagged as something other than a string
    /// (`!!int 3`, `!custom x`), shown as written (`!!int`); nil for plain and quoted scalars
    /// and `!!str`. Tags are read as composed, before any resolution.
    private func nonStringTag(_ scalar: Node.Scalar) -> String? {
        let tag = scalar.tag.description
        guard !["", "!", "tag:yaml.org,2002:str"].contains(tag) else { return nil }
        let prefix = "tag:yaml.org,2002:"
        return tag.hasPrefix(prefix) ? "!!" + tag.dropFirst(prefix.count) : tag
    }

    private func isNameLike(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        return !(syntax == .json && scalar.style == .plain)
    }

    /// The object an optional key holds: nil when it is null (nothing written) or, with a CP100
    /// saying `problem`, when it is something else.
    mutating func optionalMapping(_ node: Node, else problem: String) -> Node.Mapping? {
        if isNull(node) { return nil }
        guard case .mapping(let mapping) = node else {
            report(problem, at: node)
            return nil
        }
        return mapping
    }

    func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    mutating func spend() -> Bool {
        nodeBudget -= 1
        if nodeBudget == 0 {
            diagnostics.append(Diagnostic(.unreadableSpec, "the spec expands to more values than it has characters (YAML aliases?)", at: SourceLocation(file: file)))
        }
        return nodeBudget > 0
    }

    mutating func report(_ message: String, at node: Node) {
        diagnostics.append(Diagnostic(.unreadableSpec, message, at: location(of: node)))
    }

    private func location(of node: Node) -> SourceLocation {
        guard let mark = node.mark else { return SourceLocation(file: file) }
        return SourceLocation(file: file, line: mark.line, column: mark.column)
    }
}

/// Parses `mappings` keys: `"From -> To"` (also `→`).
package enum MappingStepKey {
    package static func split(_ text: String) -> (String, String)? {
        for arrow in [" -> ", " → ", "->", "→"] {
            if let range = text.range(of: arrow) {
                let from = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
                let to = text[range.upperBound...].trimmingCharacters(in: .whitespaces)
                if !from.isEmpty, !to.isEmpty { return (from, to) }
                return nil
            }
        }
        return nil
    }
}

extension SourceLocation {
    /// `line:column` (or `line`), for messages that refer to another place in the same file.
    package var lineColumn: String {
        guard let line else { return "the start of the file" }
        if let column { return "line \(line), column \(column)" }
        return "line \(line)"
    }
}

import ChainPlanCore
import Foundation

/// A record of the findings a chain has today, so a long history can reach a green gate without
/// turning rules off: `validate --write-baseline FILE` writes it, `validate --baseline FILE`
/// reports only the findings that are not in it (the SwiftLint convention).
///
/// A finding is identified by what it is about, not where it is printed: its code, its related
/// versions, and the names its message quotes (entity, property, version, mapping model), in
/// order. Line and column numbers, severity and the rest of the wording are not part of the
/// identity, so editing a file above a finding, or raising a rule's severity, keeps it baselined;
/// a new step, a new entity or a new property is a new finding. A baseline never hides a finding
/// that makes the input unusable (exit status 2).
///
/// Example: `CP201` on `Model 9 → Model 10` quoting `'Order'` and `'total'` has the identity
/// `CP201 | Model 9,Model 10 | Order,total`.
package struct Baseline: Sendable, Hashable, Codable {
    package static let currentSchemaVersion = 1
    /// A larger file is refused: a baseline lists findings, not megabytes of them.
    package static let maxBytes = 64 << 20

    package var schemaVersion: Int = Baseline.currentSchemaVersion
    package var tool: String = "chainplan"
    package var findings: [Entry]

    package struct Entry: Sendable, Hashable, Codable, Comparable {
        package var code: String
        package var versions: [String]
        /// The names the message quotes, in order.
        package var subject: [String]
        /// For the reader of the file only; not compared.
        package var message: String

        package init(_ diagnostic: Diagnostic) {
            code = diagnostic.code.rawValue
            versions = diagnostic.versions
            subject = Baseline.quotedNames(in: diagnostic.message)
            message = diagnostic.message
        }

        /// What two entries must share to be the same finding.
        package var identity: String {
            [code, versions.joined(separator: "\u{1F}"), subject.joined(separator: "\u{1F}")].joined(separator: "\u{1E}")
        }

        package static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.identity, lhs.message) < (rhs.identity, rhs.message)
        }
    }

    package init(diagnostics: [Diagnostic]) {
        findings = diagnostics.filter { !Baseline.keepsAlways($0) }.map(Entry.init).sorted()
    }

    /// The result of applying a baseline: the findings still reported and how many it matched.
    package struct Application: Sendable, Hashable {
        package var diagnostics: [Diagnostic]
        package var suppressed: Int
    }

    /// Removes the findings the baseline records. Each entry matches at most as many findings as
    /// it was recorded for (two identical findings baselined once leave one reported).
    package func apply(to diagnostics: [Diagnostic]) -> Application {
        var remaining: [String: Int] = [:]
        for entry in findings { remaining[entry.identity, default: 0] += 1 }
        var kept: [Diagnostic] = []
        var suppressed = 0
        for diagnostic in diagnostics {
            let identity = Entry(diagnostic).identity
            if !Baseline.keepsAlways(diagnostic), let count = remaining[identity], count > 0 {
                remaining[identity] = count - 1
                suppressed += 1
            } else {
                kept.append(diagnostic)
            }
        }
        return Application(diagnostics: kept, suppressed: suppressed)
    }

    /// Pretty, sorted JSON ending in a newline: stable under version control.
    package func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    package enum ReadError: Error, CustomStringConvertible {
        case unreadable(String, String)
        case unsupported(String, Int)

        package var description: String {
            switch self {
            case let .unreadable(path, reason): return "baseline '\(path)' cannot be read: \(reason)"
            case let .unsupported(path, version):
                return "baseline '\(path)' has schemaVersion \(version); this chainplan reads \(Baseline.currentSchemaVersion)"
            }
        }
    }

    package static func read(from url: URL, displayPath: String) throws -> Baseline {
        let data: Data
        switch FileAccess.readRegularFile(at: url, maxBytes: maxBytes) {
        case .success(let bytes): data = bytes
        case .failure(.missing): throw ReadError.unreadable(displayPath, "no such file")
        case .failure(.unreadable(_, let reason)): throw ReadError.unreadable(displayPath, reason)
        case .failure(let problem): throw ReadError.unreadable(displayPath, problem.reason)
        }
        let baseline: Baseline
        do {
            baseline = try JSONDecoder().decode(Baseline.self, from: data)
        } catch {
            throw ReadError.unreadable(displayPath, "not a chainplan baseline (JSON with schemaVersion and findings)")
        }
        guard baseline.schemaVersion == currentSchemaVersion else { throw ReadError.unsupported(displayPath, baseline.schemaVersion) }
        return baseline
    }

    /// Findings no filter hides: those that make the input unusable.
    package static func keepsAlways(_ diagnostic: Diagnostic) -> Bool {
        diagnostic.code.unusableInput && diagnostic.severity == .error
    }

    /// The names a message quotes with single quotes: `'Order'` → `Order`. Apostrophes inside
    /// words (`it's`) do not open a quote.
    static func quotedNames(in message: String) -> [String] {
        var names: [String] = []
        var current: String?
        var previous: Character = " "
        for character in message {
            if var name = current {
                if character == "'" {
                    names.append(name)
                    current = nil
                } else {
                    name.append(character)
                    current = name
                }
            } else if character == "'", !(previous.isLetter || previous.isNumber) {
                current = ""
            }
            previous = character
        }
        return names
    }
}

import ChainPlanCore
import ChainPlanPlanning
import Foundation

/// `chainplan stage --write-models`: the decompositions' intermediate versions written into the
/// bundle as new `.xcdatamodel` folders, their `contents` edited as text from the neighbouring
/// versions' files (so they keep Xcode's dialect). A version is never overwritten: when any name
/// exists (CP514), or a base version's file cannot be read or edited (CP111), nothing is written.
public enum StageModelWriter {
    /// What would be written: each new version's name and `contents`, or the findings that stop it.
    public static func prepare(_ decompositions: [Decomposition], bundle: URL) -> Result<[(name: String, text: String)], Refusal> {
        let bundleName = bundle.lastPathComponent
        let edited = StageDecomposer.contents(of: decompositions) { version in
            try? String(contentsOf: bundle.appendingPathComponent("\(version).xcdatamodel/contents"), encoding: .utf8)
        }
        var findings: [Diagnostic] = []
        var versions: [(name: String, text: String)] = []
        for (name, text) in edited {
            let folder = "\(bundleName)/\(name).xcdatamodel"
            if FileManager.default.fileExists(atPath: bundle.appendingPathComponent("\(name).xcdatamodel").path) {
                findings.append(.intermediateVersionExists(name, folder: folder))
            } else if let text {
                versions.append((name, text))
            } else {
                findings.append(Diagnostic(.unreadableModelBundle, "cannot write the version '\(name)': its base version's contents could not be read or edited",
                                           at: SourceLocation(file: bundleName), versions: [name]))
            }
        }
        return findings.isEmpty ? .success(versions) : .failure(Refusal(findings: findings))
    }

    /// Writes `versions` (from `prepare`) into `bundle`; returns each written file's path from
    /// the bundle's parent folder. Creating a folder that appeared meanwhile fails, never overwrites.
    public static func write(_ versions: [(name: String, text: String)], bundle: URL) throws -> [String] {
        var written: [String] = []
        for (name, text) in versions {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data(text.utf8).write(to: folder.appendingPathComponent("contents"), options: .withoutOverwriting)
            written.append("\(bundle.lastPathComponent)/\(name).xcdatamodel/contents")
        }
        return written
    }

    /// Why nothing was written.
    public struct Refusal: Error, Sendable {
        public var findings: [Diagnostic]
    }
}

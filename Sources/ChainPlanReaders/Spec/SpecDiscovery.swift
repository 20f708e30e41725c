import Foundation

/// Finds the spec when none is named: `chain.json`, `chain.yaml` or `chain.yml` in a directory.
package enum SpecDiscovery {
    package static let candidateNames = ["chain.json", "chain.yaml", "chain.yml"]

    package enum Outcome: Sendable, Equatable {
        case found(URL)
        case none
        case several([String])
    }

    package static func find(in directory: URL) -> Outcome {
        let present = candidateNames.filter {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path)
        }
        switch present.count {
        case 0: return .none
        case 1: return .found(directory.appendingPathComponent(present[0]))
        default: return .several(present)
        }
    }
}

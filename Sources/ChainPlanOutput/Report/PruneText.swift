import ChainPlanCore
import ChainPlanPlanning

extension PruneReport {
    /// What pruning removes, who it strands, the files and bytes, and the spec edit.
    package func text() -> String {
        var lines = ["Pruning \(bundle) to '\(oldest)' and later"]
        guard !versions.isEmpty else {
            return (lines + ["  nothing to remove: no version of the chain comes before '\(oldest)'"]).joined(separator: "\n") + "\n"
        }
        lines.append("  removes \(versions.count) version\(versions.count == 1 ? "" : "s"): \(versions.map { "'\($0)'" }.joined(separator: ", "))")
        if stranded.isEmpty {
            lines.append("  strands no user: every removed version's stores open as a kept version")
        } else {
            lines.append("  strands the users of:")
            for entry in stranded {
                let releases = entry.releases.isEmpty ? (releasesKnown ? "current at no tag" : "releases unknown") : "current at " + entry.releases.joined(separator: ", ")
                lines.append("    '\(entry.version)' (\(releases))")
            }
            lines.append("  their stores: \(stranded[0].outcome)")
        }
        for entry in stillOpens {
            lines.append("  '\(entry.version)' stores still open: they have the entity hashes of '\(entry.opensAs)', which stays")
        }
        if let why = releasesUnknown { lines.append("  note: releases not read from git: \(why)") }
        lines.append("  deletes \(removed.count) file\(removed.count == 1 ? "" : "s") or folder\(removed.count == 1 ? "" : "s") (\(ByteSize.describe(bytes))):")
        lines += removed.map { "    \($0)" }
        lines.append("  then write the chain as: \(chain)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report in chainplan's JSON envelope.
    package func json() -> [UInt8] {
        Array(JSONEnvelope.encode(self))
    }
}

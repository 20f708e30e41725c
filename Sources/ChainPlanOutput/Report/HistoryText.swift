import ChainPlanCore
import ChainPlanPlanning

extension HistoryReport {
    /// One line per version, oldest first: the commit that added it (12 digits and its day)
    /// and the tags at which it was current.
    package func text() -> String {
        var lines = ["History of \(bundle): \(versions.count) version\(versions.count == 1 ? "" : "s"), oldest first"]
        let width = versions.map { $0.version.count }.max() ?? 0
        for entry in versions {
            let name = entry.version.padding(toLength: width, withPad: " ", startingAt: 0)
            var line = "  \(name)  "
            if let added = entry.addedIn {
                line += "added in \(added.commit.prefix(12)) (\(added.date.prefix(10)))"
            } else {
                line += "not committed yet"
            }
            if !entry.currentIn.isEmpty {
                line += "; current at \(entry.currentIn.abbreviated.joined(separator: ", "))"
            }
            lines.append(line)
        }
        if shallow {
            lines.append("note: this clone is shallow: its oldest commit stands for every older one (fetch the history: `git fetch --unshallow`)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The report in chainplan's JSON envelope: `{"bundle", "versions": [{"version",
    /// "addedIn": {"commit", "date"} | null, "currentIn": [...]}], "shallow"}`.
    package func json() -> [UInt8] {
        Array(JSONEnvelope.encode(self))
    }
}

/// The schema of the scratch copy as it is now: tables with their columns, `Z_PRIMARYKEY`,
/// and explicit indexes. Read again before every simulated step, so a step works on what the
/// previous one left, not on a prediction of it.
package struct LiveSchema {
    package struct Table {
        package var name: String
        package var columns: [String]

        package init(name: String, columns: [String]) {
            self.name = name
            self.columns = columns
        }
    }

    /// Tables by upper-cased name (SQLite names are case-insensitive).
    package var tables: [String: Table] = [:]
    /// `Z_PRIMARYKEY`: entity name → `Z_ENT`, and entity name → `Z_MAX`.
    package var entityNumbers: [String: Int] = [:]
    package var maxKeys: [String: Int] = [:]
    /// Explicit indexes (with SQL; not SQLite's automatic ones): upper-cased name → table.
    package var indexes: [String: (name: String, table: String)] = [:]

    package init() {}

    /// The live table a predicted name stands for: the same name, else the one table whose name
    /// differs only in a trailing collision number (Core Data's suffixes are not predictable).
    package func table(_ predicted: String) -> Table? {
        if let exact = tables[predicted.uppercased()] { return exact }
        let base = Self.withoutSuffix(predicted)
        let candidates = tables.values.filter { Self.withoutSuffix($0.name) == base }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// The live column a predicted name stands for, by the same rule as `table(_:)`.
    package static func column(_ predicted: String, in columns: [String]) -> String? {
        let upper = predicted.uppercased()
        if let exact = columns.first(where: { $0.uppercased() == upper }) { return exact }
        let base = withoutSuffix(predicted)
        let candidates = columns.filter { withoutSuffix($0) == base }
        return candidates.count == 1 ? candidates[0] : nil
    }

    /// The upper-cased name without its trailing numbers (`Character.isNumber`).
    package static func withoutSuffix(_ name: String) -> String {
        // ASCII (every name Core Data writes): upper-case letters and drop trailing digits byte
        // by byte; the only ASCII characters that are numbers are the digits.
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes = Array(name.utf8)
            while let last = bytes.last, last >= 0x30, last <= 0x39 { bytes.removeLast() }
            for index in bytes.indices where bytes[index] >= 0x61 && bytes[index] <= 0x7A { bytes[index] -= 0x20 }
            return String(decoding: bytes, as: UTF8.self)
        }
        return withoutSuffixByCharacter(name)
    }

    /// `withoutSuffix` character by character, for any name.
    static func withoutSuffixByCharacter(_ name: String) -> String {
        String(name.uppercased().reversed().drop(while: \.isNumber).reversed())
    }

    /// An SQL identifier in double quotes, inner quotes doubled.
    package static func quote(_ identifier: String) -> String {
        // Without a quote inside (every name Core Data writes), no replacing to do.
        guard identifier.utf8.contains(0x22) else { return "\"" + identifier + "\"" }
        return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

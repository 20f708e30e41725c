/// Natural ordering of model version names, the order in which projects add versions.
///
/// A plain string sort gets history wrong (`Model 10` before `Model 2`, `2.10` before `2.9`).
/// Names are split into runs of ASCII digits and runs of other characters; digit runs compare
/// as numbers (of any length, without overflow), other runs as text, and a name that is a
/// prefix of another (in runs) sorts first. So `Model` < `Model 2` < `Model 10`, `2.9` < `2.10`,
/// `2.24` < `2.24.1`, `v1.0` < `v1.0-2`, `SampleModel3` < `SampleModel3_v2`, and a base name
/// without a number sorts before every numbered name that extends it.
///
/// The order is total and deterministic: names that compare equal by runs (`v01` and `v1`) are
/// ordered by their plain Unicode string order.
package enum VersionOrder {
    /// `names` in natural version order (oldest first).
    package static func sorted(_ names: [String]) -> [String] {
        let keyed = names.map { (name: $0, key: Key($0)) }
        return keyed.sorted { lhs, rhs in
            switch Key.compare(lhs.key, rhs.key) {
            case .less: true
            case .greater: false
            case .equal: lhs.name < rhs.name
            }
        }.map(\.name)
    }

    /// True when `a` comes strictly before `b` in natural version order.
    package static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        switch Key.compare(Key(a), Key(b)) {
        case .less: true
        case .greater: false
        case .equal: a < b
        }
    }

    enum Ordering { case less, equal, greater }

    /// A name split into alternating text and number runs.
    struct Key {
        enum Run {
            /// A run of non-digit characters.
            case text(Substring)
            /// A run of ASCII digits with leading zeros removed ("" for zero).
            case number(Substring)
        }

        var runs: [Run] = []

        init(_ name: String) {
            var current = name.startIndex
            while current < name.endIndex {
                let isDigit = Self.isASCIIDigit(name[current])
                var end = name.index(after: current)
                while end < name.endIndex, Self.isASCIIDigit(name[end]) == isDigit {
                    end = name.index(after: end)
                }
                let run = name[current..<end]
                if isDigit {
                    let significant = run.drop { $0 == "0" }
                    runs.append(.number(significant))
                } else {
                    runs.append(.text(run))
                }
                current = end
            }
        }

        static func isASCIIDigit(_ character: Character) -> Bool {
            guard let ascii = character.asciiValue else { return false }
            return ascii >= 0x30 && ascii <= 0x39
        }

        static func compare(_ lhs: Key, _ rhs: Key) -> Ordering {
            for (left, right) in zip(lhs.runs, rhs.runs) {
                let order: Ordering
                switch (left, right) {
                case let (.number(a), .number(b)):
                    order = compareNumbers(a, b)
                case let (.text(a), .text(b)):
                    order = a == b ? .equal : (a < b ? .less : .greater)
                case (.number, .text):
                    // `Model 2` vs `Model X`: numbers before text at the same position.
                    order = .less
                case (.text, .number):
                    order = .greater
                }
                if order != .equal { return order }
            }
            if lhs.runs.count == rhs.runs.count { return .equal }
            return lhs.runs.count < rhs.runs.count ? .less : .greater
        }

        /// Compares two digit strings without leading zeros as unbounded integers.
        static func compareNumbers(_ a: Substring, _ b: Substring) -> Ordering {
            if a.count != b.count { return a.count < b.count ? .less : .greater }
            if a == b { return .equal }
            return a < b ? .less : .greater
        }
    }
}

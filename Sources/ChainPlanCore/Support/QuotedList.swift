extension Sequence<String> {
    /// `'A', 'B', 'C'`: names as findings list them.
    package var quotedList: String { map { "'\($0)'" }.joined(separator: ", ") }
}

extension Array where Element == String {
    /// Up to six names as they are; more as the first three, `…` and the last two.
    package var abbreviated: [String] {
        count <= 6 ? self : Array(prefix(3)) + ["…"] + suffix(2)
    }
}

extension Sequence<String> {
    /// `'A', 'B', 'C'`: names as findings list them.
    package var quotedList: String { map { "'\($0)'" }.joined(separator: ", ") }
}

/// Bounds on the Swift input the SwiftData reader accepts, so hostile input is a finding, not a
/// crash or a hang.
package enum SwiftSourceLimits {
    /// Largest single Swift file read, in bytes.
    package static let maxFileBytes = 4 * 1024 * 1024
    /// Most `.swift` files read from one folder (a larger folder is a finding).
    package static let maxFiles = 5_000
    /// Most bytes of Swift read from one folder in all.
    package static let maxTotalBytes = 64 * 1024 * 1024
    /// Deepest folder nesting walked below the folder given.
    package static let maxFolderDepth = 32
    /// The parser's nesting limit: deeper source is a syntax finding, which also keeps every
    /// recursive walk over the tree shallow (the reader's thread has a 64 MiB stack for them).
    package static let maxNesting = 100
    /// Deepest nesting of brackets in a file's text, checked before parsing (see
    /// `ParsedSwiftFile.excessiveNesting`).
    package static let maxBrackets = 256
    /// Longest typealias chain followed (a longer one, or a cycle, is unresolvable).
    package static let maxAliasDepth = 32
    /// Deepest nesting of types inside a property's type (`[[String: [Int]]]?`) or of composite
    /// structs inside each other followed.
    package static let maxTypeDepth = 16
}

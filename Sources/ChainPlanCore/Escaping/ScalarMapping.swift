extension String {
    /// Each Unicode scalar of the string as `replacement` writes it: its text, or the scalar
    /// itself when it returns nil. The loop every scalar-by-scalar escaping shares.
    package func mappingScalars(_ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(unicodeScalars.count)
        for scalar in unicodeScalars {
            if let text = replacement(scalar) { out += text } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }
}

/// Byte counts for people: `512 bytes`, `3.5 KB`, `42 KB`, `1.2 MB`, `310 MB` (1 KB = 1024 bytes).
package enum ByteSize {
    package static func describe(_ bytes: Int) -> String {
        func scaled(_ value: Double, _ unit: String) -> String {
            value < 10 ? NumberText.fixed((value * 10).rounded(.up) / 10, digits: 1) + " " + unit : "\(Int(value.rounded())) \(unit)"
        }
        if bytes < 1024 { return "\(bytes) \(bytes == 1 ? "byte" : "bytes")" }
        if bytes < 1 << 20 { return scaled(Double(bytes) / 1024, "KB") }
        if bytes < 1 << 30 { return scaled(Double(bytes) / Double(1 << 20), "MB") }
        return scaled(Double(bytes) / Double(1 << 30), "GB")
    }
}

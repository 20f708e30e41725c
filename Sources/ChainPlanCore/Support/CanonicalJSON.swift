import Foundation

/// The one JSON encoding every chainplan output uses: sorted keys, pretty printed, slashes
/// unescaped, a final newline. `JSONReporter.encode` and the spec writer both end here.
package enum CanonicalJSON {
    /// Encodes any value the way every chainplan JSON output is encoded.
    package static func encode<Value: Encodable>(_ value: Value) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Every value chainplan encodes is plain data; a failure here is a programming error.
        guard var data = try? encoder.encode(value) else { preconditionFailure("report is not encodable") }
        data.append(0x0A)
        return data
    }
}

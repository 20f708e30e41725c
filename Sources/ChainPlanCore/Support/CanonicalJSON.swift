import Foundation

/// The one JSON encoding every chainplan output uses: sorted keys, pretty printed, slashes
/// unescaped, a final newline. `JSONReporter.encode` and the spec writer both end here.
/// Values that opt into `JSONFragments` are encoded once however often they occur.
package enum CanonicalJSON {
    /// Encodes any value the way every chainplan JSON output is encoded.
    package static func encode<Value: Encodable>(_ value: Value) -> Data {
        encode(value, sharing: true)
    }

    /// `sharing` false: every value encoded where it occurs (the tests' reference).
    package static func encode<Value: Encodable>(_ value: Value, sharing: Bool) -> Data {
        let fragments = JSONFragments()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        if sharing { encoder.userInfo[JSONFragments.userInfoKey] = fragments }
        // Every value chainplan encodes is plain data; a failure here is a programming error.
        guard let encoded = try? encoder.encode(value) else { preconditionFailure("report is not encodable") }
        var data = encoded
        if sharing {
            let plain = JSONEncoder()
            plain.outputFormatting = encoder.outputFormatting
            // Tokens that do not add up (a document's own string looking like one): encoded again plainly.
            guard let spliced = fragments.splice(encoded, encoder: plain) else { return encode(value, sharing: false) }
            data = spliced
        }
        data.append(0x0A)
        return data
    }
}

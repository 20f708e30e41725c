/// Hand-written `encode(to:)` conformances, for documents whose JSON is not the synthesized one
/// (a key computed from other fields, a key kept as `null`, a filtered list), list their fields
/// once, as key–value pairs, instead of one `try container.encode(…, forKey: …)` line per field:
///
///     var container = encoder.container(keyedBy: CodingKeys.self)
///     try container.encode([.metadataKey: metadataKey, .finishTasks: tables.count])
///     try container.encodeIfPresent([.changes: changes])   // nil: the key is left out
///
/// Where no field needs such a rule, keep the synthesized conformance (and `@ExplicitNull` for
/// keys a schema promises).
extension KeyedEncodingContainer {
    /// Each value under its key; a nil optional is written `null`.
    package mutating func encode(_ fields: KeyValuePairs<Key, any Encodable>) throws {
        for (key, value) in fields { try encode(value, forKey: key) }
    }

    /// Each non-nil value under its key; the key of a nil one is left out, as a synthesized
    /// conformance does for an optional property.
    package mutating func encodeIfPresent(_ fields: KeyValuePairs<Key, (any Encodable)?>) throws {
        for case let (key, value?) in fields { try encode(value, forKey: key) }
    }
}

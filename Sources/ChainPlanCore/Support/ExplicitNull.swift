/// An optional property that a JSON document always carries: `null` when it is nil, where a
/// synthesized `Encodable` conformance would leave the key out. Reports whose schema promises a
/// key (`detectedVersion`, `currentVersion`, a version's `entities`) mark those properties with
/// it and keep the synthesized conformance, instead of spelling out `encode(to:)` field by field.
///
/// Decoding accepts the key absent or `null` (both give nil), so a report reads back what it
/// wrote.
@propertyWrapper
public struct ExplicitNull<Value> {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }
}

extension ExplicitNull: Sendable where Value: Sendable {}
extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}

extension ExplicitNull: Encodable where Value: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Decodable where Value: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }
}

extension KeyedDecodingContainer {
    /// A missing key decodes as nil: synthesized conformances call this overload for
    /// `@ExplicitNull` properties.
    public func decode<Value: Decodable>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
        ExplicitNull(wrappedValue: try decodeIfPresent(Value.self, forKey: key))
    }
}

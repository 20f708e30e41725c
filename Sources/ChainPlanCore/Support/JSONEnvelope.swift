import Foundation

/// The envelope every JSON document chainplan prints shares: `schemaVersion` (the version of
/// chainplan's JSON output, `JSONEnvelope.schemaVersion`) and `tool` (`{"name": "chainplan",
/// "version": …}`) beside the document's own keys, which stay as they were. A document that was a
/// bare list (`rules --format json`, `inspect` of several bundles) is the value of one key.
///
///     {"command": "lock", "wrote": "chain.lock"} → {"command": "lock", "schemaVersion": 1,
///                                                  "tool": {"name": "chainplan", "version": "…"}, "wrote": "chain.lock"}
package enum JSONEnvelope {
    package static let schemaVersion = 1

    /// `body` encoded with the envelope's keys merged into its top-level object.
    package static func encode<Body: Encodable>(_ body: Body) -> Data {
        CanonicalJSON.encode(Enveloped(body: body))
    }

    /// `list` as `{"<key>": list}` in the envelope.
    package static func encode<Element: Encodable>(_ list: [Element], as key: String) -> Data {
        CanonicalJSON.encode(Enveloped(body: Listed(key: key, list: list)))
    }

    /// Adds the envelope's keys to a `JSONSerialization` object.
    package static func add(to object: inout [String: Any]) {
        object["schemaVersion"] = schemaVersion
        object["tool"] = ["name": "chainplan", "version": ChainPlanVersion.string]
    }

    struct Tool: Encodable {
        var name = "chainplan"
        var version = ChainPlanVersion.string
    }

    struct Enveloped<Body: Encodable>: Encodable {
        var body: Body
        enum Keys: String, CodingKey { case schemaVersion, tool }

        func encode(to encoder: any Encoder) throws {
            try body.encode(to: encoder)
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(JSONEnvelope.schemaVersion, forKey: .schemaVersion)
            try container.encode(Tool(), forKey: .tool)
        }
    }

    struct Listed<Element: Encodable>: Encodable {
        var key: String
        var list: [Element]

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(list, forKey: Key(stringValue: key))
        }
    }
}

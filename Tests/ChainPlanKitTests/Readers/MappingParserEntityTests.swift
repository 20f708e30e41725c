import Foundation
import Testing
@testable import ChainPlanReaders

/// The mapping model's XML parsing refuses entity declarations by itself, not only through the
/// DOCTYPE check its caller runs first, and its parser never loads an external entity. (Seen
/// failing before the fix: given to the parser alone, documents declaring an internal or an
/// external entity parsed, since FoundationXML on Linux never reports declarations to the
/// delegate; the external entity was not loaded.)
@Suite struct MappingParserEntityTests {
    static let secret = "chainplan-secret-\(UUID().uuidString)"

    /// A file outside the document that an external entity points at.
    static func secretFile() throws -> URL {
        let url = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("chainplan-entity-\(UUID().uuidString).txt")
        try Data(secret.utf8).write(to: url)
        return url
    }

    static func document(_ subset: String, _ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE database [\(subset)]>
            <database>
            <object type="XDDEVMAPPINGMODEL" id="z1"><attribute name="name" type="string">\(body)</attribute></object>
            </database>

            """.utf8)
    }

    @Test(arguments: ["external", "parameter", "internal"])
    func entityDeclarationsAreRefused(_ kind: String) throws {
        let file = try Self.secretFile()
        defer { try? FileManager.default.removeItem(at: file) }
        let data = switch kind {
        case "external": Self.document(#"<!ENTITY e SYSTEM "\#(file.absoluteString)">"#, "&e;")
        case "parameter": Self.document(#"<!ENTITY % p SYSTEM "\#(file.absoluteString)"> %p;"#, "x")
        default: Self.document(#"<!ENTITY e "inner">"#, "&e;")
        }
        switch MappingXMLDocument.parse(prepared: data) {
        case .success(let document):
            let texts = document.objects.flatMap { $0.attributes.values.map(\.text) }
            Issue.record("parsed, with texts \(texts)")
            #expect(!texts.contains { $0.contains(Self.secret) }, "the external entity was loaded")
        case .failure(let failure):
            #expect(failure.message.contains("entit"), "\(failure.message)")
            #expect(!failure.message.contains(Self.secret))
        }
    }
}

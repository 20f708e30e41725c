import Testing
@testable import ChainPlanReaders

/// `MappingXMLDocument.find`: the `memchr` search it uses for needles opening with two
/// non-letters (`<!ENTITY`, `<!DOCTYPE`) finds what the byte-at-a-time search finds, the first
/// occurrence at or after the start, letters compared without case; on hand-made documents and
/// on every short sequence of pieces dense in `<`, `!` and the needles' letters.
struct MappingFindTests {
    /// The definition: every position in turn.
    static func byteAtATime(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = needle.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        guard !pattern.isEmpty, start >= 0, bytes.count >= pattern.count else { return nil }
        var index = start
        while index + pattern.count <= bytes.count {
            if (0..<pattern.count).allSatisfy({ (bytes[index + $0] >= 0x41 && bytes[index + $0] <= 0x5A ? bytes[index + $0] | 0x20 : bytes[index + $0]) == pattern[$0] }) {
                return index
            }
            index += 1
        }
        return nil
    }

    static let documents: [String] = [
        "<?xml version=\"1.0\"?><!DOCTYPE database SYSTEM \"file:///CoreData.dtd\"><database/>",
        "<database><!-- <!doctype lower --><!ENTITY x \"y\"></database>",
        "<!<!<!DOCTYPE",
        "<!DOCTYP",
        "!DOCTYPE <! DOCTYPE <!DocType",
        "",
        "<",
        "<!",
    ]

    @Test(arguments: documents.indices)
    func findsWhatEveryPositionInTurnFinds(_ index: Int) {
        let bytes = Array(Self.documents[index].utf8)
        for needle in ["<!ENTITY", "<!DOCTYPE", "<!", "database"] {
            for start in 0...max(bytes.count, 1) {
                #expect(MappingXMLDocument.find(needle, in: bytes, from: start) == Self.byteAtATime(needle, in: bytes, from: start),
                        "\(needle) from \(start) in \(Self.documents[index])")
            }
        }
    }

    /// Every sequence of up to four of these pieces (4,681 documents), from every start.
    @Test func everySequenceOfPieces() {
        let pieces = ["<!", "<", "!", "ENTITY", "entity", "DOCTYPE", "doc", "x"].map { Array($0.utf8) }
        var disagreements: [String] = []
        forEachSequence(of: pieces, upTo: 4) { document in
            for needle in ["<!ENTITY", "<!DOCTYPE"] {
                for start in 0...document.count where disagreements.count < 10 {
                    let found = MappingXMLDocument.find(needle, in: document, from: start)
                    let expected = Self.byteAtATime(needle, in: document, from: start)
                    if found != expected {
                        disagreements.append("\(needle) from \(start) in \(String(decoding: document, as: UTF8.self)): \(String(describing: found)), expected \(String(describing: expected))")
                    }
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }
}

import Foundation
import Testing
@testable import ChainPlanCore

/// `XMLSafety.scanBytes` finds the first NUL, whether any byte before it is non-ASCII, and the
/// first refused `<!DOCTYPE` and `<!ENTITY` before it, with `memchr` and one vectorised pass.
/// It must agree with the byte-at-a-time loop it replaced, kept here as the specification.
struct XMLSafetyScanTests {
    struct Found: Equatable, CustomStringConvertible {
        var nonASCII: Bool
        var nul: Int?
        var doctype: Int?
        var entity: Int?
        var description: String { "nonASCII \(nonASCII), NUL \(nul.map(String.init) ?? "-"), doctype \(doctype.map(String.init) ?? "-"), entity \(entity.map(String.init) ?? "-")" }
    }

    static func reference(_ bytes: [UInt8], allowsExternalDoctype: Bool) -> Found {
        var found = Found(nonASCII: false)
        var high: UInt8 = 0
        func word(_ text: String, at offset: Int) -> Bool {
            let word = Array(text.utf8)
            guard offset + word.count <= bytes.count else { return false }
            return word.indices.allSatisfy { (0x61...0x7A).contains(bytes[offset + $0]) ? bytes[offset + $0] - 0x20 == word[$0] : bytes[offset + $0] == word[$0] }
        }
        func internalSubset(from offset: Int) -> Bool {
            var quote: UInt8?
            for byte in bytes[offset...] {
                if let open = quote { if byte == open { quote = nil } }
                else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { quote = byte }
                else if byte == UInt8(ascii: "[") { return true }
                else if byte == UInt8(ascii: ">") { return false }
            }
            return false
        }
        for (index, byte) in bytes.enumerated() {
            high |= byte
            if byte == 0 { found.nul = index; break }
            guard byte == 0x3C, index + 1 < bytes.count, bytes[index + 1] == 0x21 else { continue }
            if found.doctype == nil, word("DOCTYPE", at: index + 2), !allowsExternalDoctype || internalSubset(from: index + 2) {
                found.doctype = index
            } else if found.entity == nil, word("ENTITY", at: index + 2) {
                found.entity = index
            }
        }
        found.nonASCII = high & 0x80 != 0
        return found
    }

    static func scanned(_ bytes: [UInt8], allowsExternalDoctype: Bool) -> Found {
        bytes.withUnsafeBufferPointer { buffer in
            let scan = XMLSafety.scanBytes(buffer, policy: .init(allowsExternalDoctype: allowsExternalDoctype))
            return Found(nonASCII: scan.hasNonASCII, nul: scan.firstNUL, doctype: scan.refusedDoctype, entity: scan.entityDeclaration)
        }
    }

    /// Every sequence of up to five of these pieces (111,111 documents), under both policies.
    @Test(arguments: [false, true])
    func agreesWithTheByteAtATimeScan(allowsExternalDoctype: Bool) {
        let pieces = ["<!", "DOCTYPE", "entity", "<", "!", "\0", "é", "[", ">", "\""].map { Array($0.utf8) }
        var disagreements: [String] = []
        forEachSequence(of: pieces, upTo: 5) { document in
            let expected = Self.reference(document, allowsExternalDoctype: allowsExternalDoctype)
            let actual = Self.scanned(document, allowsExternalDoctype: allowsExternalDoctype)
            if expected != actual, disagreements.count < 10 {
                disagreements.append("\(String(decoding: document, as: UTF8.self).debugDescription): \(actual), expected \(expected)")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func anEmptyBufferHasNothing() {
        #expect(Self.scanned([], allowsExternalDoctype: false) == Found(nonASCII: false))
    }
}

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders

/// A processing instruction with a target and no data (`<?x?>`) crashed every XML reader with a
/// delegate (FoundationXML on Linux reads libxml2's missing data pointer as a C string). Found
/// by `make fuzz`'s mapping target; the inputs it found are in Tests/Fixtures/fuzz/{mapping,model}.
/// Before the fix each row below killed the test process; now the readers refuse the document
/// and say why, and a PI with data (even empty) still parses.
@Suite struct DatalessProcessingInstructionTests {
    static let refused = ["<?x?>", "<?a-b.c:d?>", "<?xml-stylesheet?>"]
    static let accepted = ["<?x ?>", "<?x y?>", "<?x\n?>"]

    static func model(_ instruction: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel">\(instruction)
                <entity name="A" syncable="YES"><attribute name="a" optional="YES" attributeType="String"/></entity>
            </model>

            """.utf8)
    }

    static func mapping(_ instruction: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <database>\(instruction)
            <object type="XDDEVMAPPINGMODEL" id="z1"><attribute name="name" type="string">M</attribute></object>
            </database>

            """.utf8)
    }

    static func currentVersion(_ instruction: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">\(instruction)<dict><key>_XCCurrentVersionName</key><string>M 2.xcdatamodel</string></dict></plist>

            """.utf8)
    }

    @Test(arguments: refused)
    func refusedByEveryReader(_ instruction: String) {
        #expect(XMLSafety.firstDatalessProcessingInstruction(in: Data("a\(instruction)".utf8)) == 1)
        #expect(XMLSafety.firstDatalessProcessingInstruction(in: Data("<?a<\(instruction)".utf8)) == 4)
        let model = ModelContentsParser().parse(Self.model(instruction), file: "contents")
        #expect(model.model == nil)
        #expect(model.diagnostics.contains { $0.message.contains("processing instruction without data") && $0.location?.line == 2 },
                "\(model.diagnostics.map(\.message))")
        switch MappingXMLDocument.parse(Self.mapping(instruction)) {
        case .success: Issue.record("the mapping document parsed")
        case .failure(let failure):
            #expect(failure.message.contains("processing instruction without data"), "\(failure.message)")
            #expect(failure.line == 2)
        }
        guard case .invalid(let message, line: 2) = CurrentVersionFile.parse(Self.currentVersion(instruction)) else {
            Issue.record("the current-version file was not refused on line 2")
            return
        }
        #expect(message.contains("processing instruction without data"))
    }

    /// The hardened parser layer refuses by itself, so a reader that skips every pre-check
    /// (a future one, or one whose check regresses) still never hands the parser such a document.
    final class Recorder: NSObject, PositionReadingXMLDelegate {
        var parser: XMLParser?
        var instructions: [String] = []
        func parser(_ parser: XMLParser, foundProcessingInstructionWithTarget target: String, data: String?) {
            instructions.append(target)
        }
    }

    @Test(arguments: refused)
    func refusedByTheHardenedParserItself(_ instruction: String) {
        let document = Self.mapping(instruction)
        #expect(throws: HardenedXMLParser.Refusal.self) { try HardenedXMLParser.make(document) }
        do {
            _ = try HardenedXMLParser.make(document)
        } catch {
            #expect(error.offset == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<database>".utf8.count)
            #expect(error.message == XMLSafety.datalessProcessingInstructionMessage)
        }
        let recorder = Recorder()
        #expect(!HardenedXMLParser.parse(document, with: recorder))
        #expect(recorder.instructions.isEmpty)
    }

    @Test(arguments: accepted)
    func theHardenedParserReadsInstructionsWithData(_ instruction: String) throws {
        let recorder = Recorder()
        #expect(HardenedXMLParser.parse(Self.mapping(instruction), with: recorder))
        #expect(recorder.instructions == ["x"])
        _ = try HardenedXMLParser.make(Self.mapping(instruction))
    }

    @Test(arguments: accepted)
    func instructionsWithDataStillParse(_ instruction: String) {
        #expect(XMLSafety.firstDatalessProcessingInstruction(in: Data(instruction.utf8)) == nil)
        #expect(ModelContentsParser().parse(Self.model(instruction), file: "contents").model != nil)
        guard case .success = MappingXMLDocument.parse(Self.mapping(instruction)) else {
            Issue.record("the mapping document was refused")
            return
        }
        let line = 2 + instruction.filter { $0 == "\n" }.count
        #expect(CurrentVersionFile.parse(Self.currentVersion(instruction)) == .name("M 2.xcdatamodel", line: line))
    }

    /// The byte-at-a-time scan the `memchr` one replaced, kept as the specification: the first
    /// `<?` followed by a non-empty target (up to white space, `?` or `<`) and `?>`.
    static func reference(_ bytes: [UInt8]) -> Int? {
        func endsTarget(_ byte: UInt8) -> Bool { [0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "?"), UInt8(ascii: "<")].contains(byte) }
        var index = 0
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "?") {
                var end = index + 2
                while end < bytes.count, !endsTarget(bytes[end]) { end += 1 }
                if end > index + 2, end + 1 < bytes.count, bytes[end] == UInt8(ascii: "?"), bytes[end + 1] == UInt8(ascii: ">") { return index }
                index = end
                continue
            }
            index += 1
        }
        return nil
    }

    /// Every string of up to seven bytes over `<?>x` and a space (97,655 of them): the scan
    /// agrees with the reference on each.
    @Test func agreesWithTheByteAtATimeScan() {
        let alphabet = Array("<?>x ".utf8)
        var disagreements: [String] = []
        var word: [UInt8] = []
        func visit(_ length: Int) {
            if Self.reference(word) != XMLSafety.firstDatalessProcessingInstruction(in: Data(word)) {
                disagreements.append(String(decoding: word, as: UTF8.self))
            }
            guard length < 7 else { return }
            for byte in alphabet {
                word.append(byte)
                visit(length + 1)
                word.removeLast()
            }
        }
        visit(0)
        #expect(disagreements.isEmpty, "\(disagreements.prefix(10))")
    }
}

import Testing
@testable import ChainPlanInference

/// `LiveSchema.withoutSuffix` (the name Core Data's collision numbers are matched by): the
/// byte-wise path for ASCII names says what the character-wise rule says, and the rule still
/// serves names with other characters.
struct LiveSchemaSuffixTests {
    static let names: [String] = [
        "", "Z", "ZNAME", "zName", "ZNAME1", "ZNAME12", "Z_2TAGS", "Z_2TAGS3", "123", "z_fok_list7", "Z9A9",
        "name\r\n1", "a-b_c.d 4", "ZÉTÉ2", "zété", "Z½", "ZNAME٣", "ZNAMEⅦ", "ß1", "Zﬁ2", "Z\u{301}1",
    ]

    @Test(arguments: names)
    func byteWiseEqualsCharacterWise(_ name: String) {
        #expect(LiveSchema.withoutSuffix(name) == LiveSchema.withoutSuffixByCharacter(name))
    }

    @Test func examples() {
        #expect(LiveSchema.withoutSuffix("z_fok_list7") == "Z_FOK_LIST")
        #expect(LiveSchema.withoutSuffix("Z_2TAGS3") == "Z_2TAGS")
        #expect(LiveSchema.withoutSuffix("ZNAME٣") == "ZNAME")
    }
}

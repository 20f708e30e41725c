import Testing
@testable import ChainPlanInference

/// `StoreLayout.unique`: a name taken case-insensitively gets 1, 2, … appended, whether the
/// names are upper-case ASCII (the common case, not upper-cased again), lower-case, or not ASCII.
struct StoreLayoutUniqueNameTests {
    @Test(arguments: [
        (["ZNAME", "ZNAME", "ZNAME"], ["ZNAME", "ZNAME1", "ZNAME2"]),
        (["ZNAME", "Zname", "zName1"], ["ZNAME", "Zname1", "zName11"]),
        (["ZÉTÉ", "Zété", "ZÉTÉ"], ["ZÉTÉ", "Zété1", "ZÉTÉ2"]),
        (["ZSTRASSE", "Zstraße"], ["ZSTRASSE", "Zstraße1"]),
        (["Z_1TAGS", "Z_FOK_1TAGS", "z_1tags"], ["Z_1TAGS", "Z_FOK_1TAGS", "z_1tags1"]),
    ])
    func suffixes(_ bases: [String], _ expected: [String]) {
        var used: Set<String> = []
        #expect(bases.map { StoreLayout.unique($0, in: &used) } == expected)
        #expect(used == Set(expected.map { $0.uppercased() }))
    }
}

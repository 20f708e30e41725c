import Testing
@testable import ChainPlanInference

/// `FirstOfName` (the resolved view keeps the first property of each name): the same answers
/// as a set, whether it compares names one by one (up to `linearLimit`) or hashes them, for
/// lists with and without repeats, on both sides of the limit.
struct FirstOfNameTests {
    static let lists: [[String]] = [
        [],
        ["title"],
        ["title", "title"],
        ["title", "body", "Title", "body", "created"],
        (0..<FirstOfName.linearLimit).map { "p\($0)" },
        (0..<FirstOfName.linearLimit).map { "p\($0 % 7)" },
        (0..<(FirstOfName.linearLimit * 3)).map { "p\($0 % 40)" },
        (0..<200).map { "p\($0)" } + ["p3", "p199", "é", "é"],
    ]

    @Test(arguments: lists.indices)
    func answersLikeASet(_ index: Int) {
        let names = Self.lists[index]
        for expected in [0, names.count, FirstOfName.linearLimit + 1] {
            var first = FirstOfName(expected: expected)
            var seen: Set<String> = []
            #expect(names.map { first.insert($0) } == names.map { seen.insert($0).inserted }, "\(names.count) names, \(expected) expected")
        }
    }
}

import Testing
@testable import ChainPlanCore
@testable import ChainPlanPlanning

/// A lock with many malformed lines lists the first 20 and says how many more there are.
/// (Seen failing before the fix: the list was cut at 20 with nothing saying so.)
@Suite struct LockProblemLimitTests {
    @Test(arguments: [(3, 3, nil), (20, 20, nil), (21, 21, "1 more finding of this kind is not listed"),
                      (25, 21, "5 more findings of this kind are not listed")] as [(Int, Int, String?)])
    func manyMalformedLines(_ malformed: Int, _ reported: Int, _ closing: String?) {
        let text = (1...malformed).map { "bogus line \($0)\n" }.joined()
        let (lock, problems) = ChainLock.read(text, file: "chain.lock")
        #expect(lock == nil)
        #expect(problems.count == reported)
        #expect(problems.allSatisfy { $0.code == .unreadableLock })
        if let closing {
            #expect(problems.last?.message.hasPrefix(closing) == true, "\(problems.last?.message ?? "")")
            #expect(problems.last?.location?.file == "chain.lock")
        }
    }
}

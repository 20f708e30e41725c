import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore

/// The commands `chainplan rules` shows for its examples use the spellings help documents, never
/// the hidden old `fixture --version`. (Seen failing before the fix: every dry-run example showed
/// `chainplan fixture --version V1 --rows N`.)
@Suite struct ShownCommandSpellingTests {
    static let shown: [String] = RuleCatalogue.all.flatMap(\.examples).filter { example in
        if case .project(let project) = example.input { project.store?.version != nil } else { false }
    }.map(\.shownInput)

    @Test func examplesWithAStoreExist() {
        #expect(!Self.shown.isEmpty)
    }

    @Test func noHiddenSpelling() {
        for text in Self.shown {
            #expect(!text.contains("fixture --version"), "\(text)")
            #expect(text.contains("chainplan fixture --model-version "), "\(text)")
        }
    }
}

import Foundation
import Testing
@testable import ChainPlanCore

/// Numbers in output do not depend on the user's locale (en_US_POSIX everywhere).
@Suite struct NumberTextTests {
    @Test(arguments: [(0, "0"), (999, "999"), (1_000, "1,000"), (1_234_567, "1,234,567"), (-42_000, "-42,000")])
    func grouped(_ value: Int, _ expected: String) {
        #expect(NumberText.grouped(value) == expected)
    }

    @Test(arguments: [(0.125, 2, "0.12"), (3.5, 1, "3.5"), (1.0 / 3, 3, "0.333"), (1234.5, 1, "1234.5")])
    func fixed(_ value: Double, _ digits: Int, _ expected: String) {
        #expect(NumberText.fixed(value, digits: digits) == expected)
    }

    @Test(arguments: [(5.0, "5"), (0.25, "0.25"), (1e-3, "0.001")])
    func short(_ value: Double, _ expected: String) {
        #expect(NumberText.short(value) == expected)
    }

    /// Every number in output goes through NumberText: no other module formats numbers by the
    /// current locale (`.formatted()`) or with `String(format:)` and no locale.
    @Test func noLocaleDependentFormattingInSources() throws {
        let sources = TestPaths.packageRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 50)
        for file in files where !file.hasSuffix("NumberText.swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for pattern in [".formatted(", "String(format:"] {
                #expect(!text.contains(pattern), "\(file) uses \(pattern): use NumberText")
            }
        }
    }
}

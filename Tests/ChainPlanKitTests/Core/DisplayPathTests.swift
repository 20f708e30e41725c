import Foundation
import Testing
@testable import ChainPlanKit
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanHashing
@testable import ChainPlanGraph
@testable import ChainPlanInference
@testable import ChainPlanPlanning
@testable import ChainPlanStore
@testable import ChainPlanOutput

/// Paths in output are relative to the working directory, so that reports are the same on
/// every machine and a CI annotation points at the checkout's file.
struct DisplayPathTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var base: String
        var expected: String
        var testDescription: String { "\(path) from \(base)" }
    }

    static let cases: [Case] = [
        Case(path: "/work/main/Chains/notas/chain.json", base: "/work/main", expected: "Chains/notas/chain.json"),
        Case(path: "/work/main/Chains/notas/chain.json", base: "/work/main/", expected: "Chains/notas/chain.json"),
        Case(path: "/work/shared/corpus/A.xcdatamodeld", base: "/work/main", expected: "../shared/corpus/A.xcdatamodeld"),
        Case(path: "/work/a/b/c", base: "/work/x/y", expected: "../../a/b/c"),
        Case(path: "/work/main", base: "/work/main/Chains", expected: ".."),
        Case(path: "/work/main", base: "/work/main", expected: "."),
        Case(path: "/work/main/./Chains/../chain.json", base: "/work/main", expected: "chain.json"),
        // Nothing in common but the root: an absolute path reads better than ../../etc/passwd.
        Case(path: "/etc/passwd", base: "/work/main", expected: "/etc/passwd"),
        // A shared prefix of characters is not a shared folder.
        Case(path: "/work/mainline/x.json", base: "/work/main", expected: "../mainline/x.json"),
    ]

    @Test(arguments: cases)
    func relative(_ item: Case) {
        let url = URL(fileURLWithPath: item.path)
        let base = URL(fileURLWithPath: item.base, isDirectory: true)
        #expect(DisplayPath.make(url, relativeTo: base) == item.expected)
    }
}

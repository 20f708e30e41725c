import Foundation
import Testing
@testable import ChainPlanCLI
import ChainPlanKit

/// `graph` guesses its format from the words of its command line before they are parsed, so
/// that Graphviz can load its plugins meanwhile. The guess only decides what is prepared;
/// the command renders in the format it parses (`GraphCommandTests` and the goldens).
@Suite struct GraphPreparationTests {
    @Test("the format graph will likely render, from its words", arguments: [
        (["graph"], RenderFormat.svg),
        (["graph", "chain.json"], .svg),
        (["graph", "chain.json", "-o", "chain.png"], .png),
        (["graph", "-o", "chain.PDF", "chain.json"], .pdf),
        (["graph", "--output=chain.json.svg"], .svg),
        (["graph", "--output", "chain.gv"], .dot),
        (["graph", "-o", "chain.dot"], .dot),
        (["graph", "-o", "chain.jpg"], .dot),  // a usage error: nothing to prepare
        (["graph", "-o", "chain."], .svg),
        (["graph", "-o", "out/.svg"], .svg),
        (["graph", "-o", "out/v2.d/chain"], .svg),
        (["graph", "-o", "out/chain.PNG/"], .png),
        (["graph", "--format", "json", "-o", "chain.svg"], .json),
        (["graph", "--format=dot"], .dot),
        (["graph", "--format", "dot"], .dot),
        (["graph", "--format", "jpeg"], .dot),
        (["graph", "--format"], .dot),
        (["graph", "--help"], .dot),
        (["graph", "-h"], .dot),
        (["validate", "chain.json"], .dot),
        (["report", "-o", "review.html"], .dot),
        ([], .dot),
    ])
    func likelyFormat(arguments: [String], expected: RenderFormat) {
        #expect(GraphCommand.likelyFormat(arguments) == expected)
    }

    @Test("the guess reads -o's extension as the command does (URL's path extension)", arguments: [
        "chain.svg", "chain.SVG", "chain.png", "c.pdf", "c.dot", "c.gv", "c.GV", "c.json", "c.jpg", "c.svgz",
        "chain", "chain.", ".svg", "out/.svg", "out/v2.d/chain", "out/chain.png/", "/tmp/a.b.pdf", "a..svg",
        "./chain.svg", "../x/chain.dot", "dir.svg/chain", "chain.svg.json", "/", "", "a/b/", "weird name.svg",
        "chain.svg ", "chain. svg", "chain.s vg", "..", "a/..", ".a.svg", "a.tar.gz",
    ])
    func guessAgreesWithResolution(path: String) {
        // `URL` resolves a relative path against the working folder, whose own name ends `""` and
        // `a/..` (a clone in `/tmp/tmp.X1y2` reads `X1y2` there): the reference is resolved in a
        // folder without a dot, the case the guess reads.
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: "/base/", isDirectory: true))
        #expect(GraphCommand.pathExtensionGuess(path) == url.pathExtension, "\(path)")
        let resolved = (try? GraphCommand.format(explicit: nil, output: url.path)) ?? .dot
        #expect(GraphCommand.format(pathExtension: GraphCommand.pathExtensionGuess(path)) ?? .dot == resolved, "\(path)")
    }
}

import Foundation
import Testing
@testable import ChainPlanOutput

/// SVG that is not well-formed XML is refused as malformed, not reported as active content.
/// (Seen failing before the fix: `<svg><g></svg>` threw `activeContent("not well-formed XML: …")`.)
@Suite struct MalformedSVGTests {
    @Test(arguments: ["<svg><g></svg>", "<svg>", "<svg></svg><svg></svg>", "not xml at all"])
    func malformedIsNotActive(_ svg: String) {
        do {
            try SVGSafety.check(Data(svg.utf8))
            Issue.record("accepted: \(svg)")
        } catch let error as RenderError {
            guard case .malformedSVG = error else {
                Issue.record("reported as \(error)")
                return
            }
            #expect(error.description.hasPrefix("the SVG output is not well-formed XML ("))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }
}

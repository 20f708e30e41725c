import Testing
@testable import ChainPlanReaders

/// Composite flattening is bounded in breadth, not only in depth. (Seen failing before the fix:
/// five elements per type over eight nested types flattened into 390,625 elements.)
@Suite struct CompositeBreadthTests {
    /// T0 … T7, each with `breadth` elements of the next type; T7's elements are strings.
    static func nested(breadth: Int) -> [CompositeType] {
        (0..<8).map { level in
            CompositeType(name: "T\(level)", attributes: (0..<breadth).map { index in
                level == 7
                    ? Attribute(name: "s\(index)", type: .string)
                    : Attribute(name: "c\(index)", type: .composite, compositeName: "T\(level + 1)")
            })
        }
    }

    @Test("a wide nesting stops at the element budget")
    func wideNestingIsBounded() {
        let attribute = Attribute(name: "root", type: .composite, compositeName: "T0")
        let elements = CompositeType.elements(of: attribute, among: Self.nested(breadth: 5))
        #expect(elements.count <= 10_000)  // CompositeType.maxElements
        #expect(elements.first?.name == "root.c0.c0.c0.c0.c0.c0.c0.s0")
    }

    @Test("a small nesting is flattened in full")
    func smallNestingIsComplete() {
        let attribute = Attribute(name: "root", type: .composite, compositeName: "T0")
        #expect(CompositeType.elements(of: attribute, among: Self.nested(breadth: 2)).count == 256)
    }
}

import Testing
@testable import ChainPlanReaders
@testable import ChainPlanInference

/// Classification flattens inheritance with the model reader's budgeted resolver
/// (`ResolvedModel`), not a resolver of its own without a budget. (Seen failing before the fix:
/// a 1,100-deep chain recorded 605,550 inherited attributes, over the 500,000 budget.)
@Suite struct ResolvedViewBudgetTests {
    /// E0 ← E1 ← … ← E(n-1), one attribute each: n(n+1)/2 attributes once flattened.
    static func chain(_ count: Int) -> ObjectModel {
        var entities: [Entity] = []
        for index in 0..<count {
            entities.append(Entity(name: "E\(index)", parentEntity: index == 0 ? nil : "E\(index - 1)",
                                   attributes: [Attribute(name: "a\(index)", type: .string)]))
        }
        return ObjectModel(entities: entities)
    }

    @Test("a deep inheritance chain stays within the resolver's budget")
    func deepChainIsBudgeted() {
        let model = Self.chain(1_100)
        let view = ResolvedView(model)
        let recorded = view.entities.reduce(0) { $0 + $1.attributes.count }
        #expect(recorded <= ResolvedModel.defaultBudget + model.entities.count)
    }

    @Test("within the budget, inheritance is flattened as the model reader resolves it")
    func sameAsModelReader() {
        let model = Self.chain(40)
        let view = ResolvedView(model)
        let resolved = ResolvedModel(model)
        for entity in view.entities {
            #expect(entity.attributes.map(\.name) == resolved.entity(named: entity.entity.name)?.attributes.map(\.name))
        }
        #expect(view.entities.last?.root == "E0")
    }
}

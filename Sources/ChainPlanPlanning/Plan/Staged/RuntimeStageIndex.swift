/// Where each key sits in a stage list, found once per list so that simulating every start
/// (reference §6.1 facts 2–4) costs no scan of the stages' keys per start: a plan of n versions
/// simulates n starts, and scanning each time made the simulations grow with n².
package struct RuntimeStageIndex: Sendable {
    /// Fact 3's pre-flight: the last stage holding the key (a lightweight member or a custom
    /// stage's current model).
    let lastHolding: [String: Int]
    /// The last stage listing the key anywhere (the app model's stage).
    let lastListing: [String: Int]
    /// The last lightweight stage, and each key's first position in it.
    let lastLightweight: Int?
    let positionInLastLightweight: [String: Int]
    /// Fact 2: the stage a store at the key is located in (the first holding it, or the one
    /// after the first custom stage whose next model it is, whichever comes first).
    let located: [String: Int]
    /// The last custom stage: stages after it are all lightweight.
    let lastCustom: Int?

    package init(_ stages: [RuntimeStage]) {
        var lastHolding: [String: Int] = [:]
        var lastListing: [String: Int] = [:]
        var located: [String: Int] = [:]
        var lastLightweight: Int?
        var lastCustom: Int?
        for (index, stage) in stages.enumerated() {
            for key in stage.keys { lastListing[key] = index }
            switch stage.kind {
            case .lightweight:
                lastLightweight = index
                for key in stage.keys {
                    lastHolding[key] = index
                    if located[key] == nil { located[key] = index }
                }
            case .custom:
                lastCustom = index
                if let current = stage.current {
                    lastHolding[current] = index
                    if located[current] == nil { located[current] = index }
                }
                if let next = stage.next, located[next] == nil { located[next] = index + 1 }
            }
        }
        var positions: [String: Int] = [:]
        if let last = lastLightweight {
            for (position, key) in stages[last].keys.enumerated() where positions[key] == nil { positions[key] = position }
        }
        self.lastHolding = lastHolding
        self.lastListing = lastListing
        self.lastLightweight = lastLightweight
        self.positionInLastLightweight = positions
        self.located = located
        self.lastCustom = lastCustom
    }
}

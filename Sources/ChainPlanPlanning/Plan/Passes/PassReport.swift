import ChainPlanCore
/// What `chainplan passes` renders: the pass plan of one heavyweight step, the entity mappings it
/// was made from, and its findings.
///
/// Printed as JSON in the envelope every document shares (`schemaVersion`, `tool`).
public struct PassReport: Sendable, Hashable, Encodable {
    /// Display path of the model bundle, and its name (the compiled `.momd`'s base name).
    public var bundle: String
    public var bundleName: String
    public var from: String
    public var to: String
    /// The mapping models the entity mappings come from, in name order; empty: the ones the user
    /// will need (one per destination entity from its source).
    public var mappingModels: [String]
    public var plan: PassPlan
    /// The memory budget passes were packed under, when given.
    public var maxMemoryBytes: Int?
    /// Display path of the store whose row counts sized the passes, when given.
    public var store: String?
    public var diagnostics: [Diagnostic]

    /// The mapping model the generated driver loads: the only one, else `<From>To<To>` (the
    /// full mapping model to make, or to merge the pass set into).
    public var fullMappingModelName: String {
        if mappingModels.count == 1, let only = mappingModels.first { return only }
        return "\(from)To\(to)".filter { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    private enum CodingKeys: String, CodingKey {
        case bundle, from, to, mappingModels, maxMemoryBytes, store, diagnostics
    }

    /// The plan's own keys (`passes`, `coverage`, `crossPass`, `singlePassMemoryBytes`, as
    /// `PassPlan` encodes them) at the top level, beside the step and the findings.
    public func encode(to encoder: Encoder) throws {
        try plan.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode([.bundle: bundle, .from: from, .to: to, .mappingModels: mappingModels,
                              .maxMemoryBytes: maxMemoryBytes, .store: store, .diagnostics: diagnostics])
    }
}

/// Why `passes` could not plan: the unusable-input findings.
public struct PassFailure: Error, Sendable {
    public var diagnostics: [Diagnostic]
    public init(_ diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }
}

/// A step's endpoints, as a dictionary key.
public struct StepKey: Sendable, Hashable, Codable, Comparable {
    public var from: String
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }

    public static func < (lhs: StepKey, rhs: StepKey) -> Bool { (lhs.from, lhs.to) < (rhs.from, rhs.to) }
}

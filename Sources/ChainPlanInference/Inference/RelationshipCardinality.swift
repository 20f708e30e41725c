import ChainPlanReaders
extension Relationship {
    /// `maxCount` as the inference rules compare it: an absent (0) one is no limit on a to-many
    /// and 1 on a to-one.
    var hashedMaxCount: Int { maxCount != 0 ? maxCount : (isToMany ? 0 : 1) }
}

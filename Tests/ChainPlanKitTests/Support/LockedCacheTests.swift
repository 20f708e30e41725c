import Testing
@testable import ChainPlanCore

/// `LockedCache` keeps the first value made for a key and counts the look-ups that find it.
struct LockedCacheTests {
    @Test func firstValueIsKeptAndHitsCounted() {
        let cache = LockedCache<Int, String>()
        #expect(cache.value(for: 1) { "a" } == "a")
        #expect(cache.hits == 0)
        #expect(cache.value(for: 1) { "b" } == "a")
        #expect(cache.value(for: 2) { "b" } == "b")
        #expect(cache.hits == 1)
    }
}

import Testing
@testable import ChainPlanCLI

/// `AllocatorTuning`: glibc accepts the arena padding `main` asks for (on Linux; elsewhere there
/// is nothing to set). What it saves is measured in `Benchmarks/NOTES.md`, not here.
struct AllocatorTuningTests {
    @Test func theAllocatorAcceptsTheSettings() {
        #expect(AllocatorTuning.apply())
        // Asking twice changes nothing and is accepted again.
        #expect(AllocatorTuning.apply())
        #expect(AllocatorTuning.topPad == 64 << 20)
    }
}

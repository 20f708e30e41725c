#if canImport(Glibc)
import Glibc
#endif

/// Process-wide allocator settings, applied by `main` as its first statement, on the main
/// thread before any other thread exists (an arena made before it keeps the defaults; the
/// async command runs on a thread the concurrency runtime starts after it).
///
/// On Linux (glibc), each thread that allocates gets its own malloc arena, a 64 MiB region
/// that glibc makes writable a page at a time as it grows: `paths` on a 117-version history
/// made 11,294 `mprotect` calls, each taking the process's memory-map lock that the other
/// threads' page faults wait on. With `M_TOP_PAD` at 64 MiB an arena is made writable whole
/// when it is created (26 `mprotect` calls), and the main heap grows by 64 MiB steps. Both are
/// address space, backed only when touched: that run's peak resident memory went from 149 to
/// 156 MB (the main heap keeps a larger top) (`Benchmarks/NOTES.md`, "Allocator: one `mprotect`
/// per arena").
public enum AllocatorTuning {
    /// The padding glibc adds when it grows a heap or creates an arena (its largest arena size).
    static let topPad: Int32 = 64 << 20
    /// glibc's `M_TOP_PAD` parameter number (`<malloc.h>`, which Swift's Glibc module leaves out).
    static let mTopPad: Int32 = -2

    /// Applies the settings; returns whether the allocator accepted them. True where there is
    /// nothing to set (not Linux); false where the C library has no `mallopt` (not glibc).
    @discardableResult
    public static func apply() -> Bool {
        #if os(Linux) && canImport(Glibc)
        // Looked up rather than linked: `mallopt` is glibc's, and a C library without it
        // (musl, for a fully static build) simply keeps its defaults.
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(nil, "mallopt") else { return false }
        return unsafeBitCast(symbol, to: Mallopt.self)(mTopPad, topPad) == 1
        #else
        return true
        #endif
    }
}

import Foundation

/// Frees a large value on a thread of its own.
///
/// A chain's classifier holds every version resolved twice over (views, contents, hash inputs)
/// and every store layout: freeing them took the last tenth of `paths` on WooCommerce, on one
/// core, while the report waited. Handed here as the caller lets go of its own copy, the value
/// is freed beside the rest of the run. Only memory is released: nothing observable changes,
/// whichever thread lets go last.
enum BackgroundRelease {
    static func release<Value: Sendable>(_ value: Value) {
        Thread { withExtendedLifetime(value) {} }.start()
    }
}

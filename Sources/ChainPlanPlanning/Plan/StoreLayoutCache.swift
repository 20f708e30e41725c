import Foundation

/// Each version's store layout, built the first time a pair's SQLite work asks for it and then
/// shared (a version takes part in up to three pairs): a step that needs no SQLite analysis (a
/// heavyweight step without a mapping model, hash-equal versions) builds none. Safe to use from
/// the parallel classification workers: a layout another worker is building is waited for, not
/// built twice.
final class StoreLayoutCache: @unchecked Sendable {
    private final class Slot: @unchecked Sendable {
        let lock = NSLock()
        var layout: StoreLayout??
    }

    private let lock = NSLock()
    private var slots: [String: Slot] = [:]
    private let models: @Sendable (String) -> ObjectModel?

    /// `models`: the model of a version by name.
    init(models: @escaping @Sendable (String) -> ObjectModel?) {
        self.models = models
    }

    /// The layout of the version `name`, nil when its model could not be read.
    func layout(of name: String) -> StoreLayout? {
        lock.lock()
        let slot = slots[name] ?? Slot()
        slots[name] = slot
        lock.unlock()
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let known = slot.layout { return known }
        let layout = models(name).map { StoreLayout(model: $0) }
        slot.layout = .some(layout)
        return layout
    }
}

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
    private let models: @Sendable (String) -> (ObjectModel, [String: PropertyNames])?
    /// Tables of lone root entities already built, taken by the versions whose entity has the
    /// same content and surroundings (most entities of a long history).
    private let shelf = TableShelf()

    /// `models`: the model of a version by name, with its entities' content names
    /// (`ResolvedView.contentNames`).
    init(models: @escaping @Sendable (String) -> (ObjectModel, [String: PropertyNames])?) {
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
        let layout = models(name).map { StoreLayout(model: $0.0, contents: $0.1, shelf: shelf) }
        slot.layout = .some(layout)
        return layout
    }
}

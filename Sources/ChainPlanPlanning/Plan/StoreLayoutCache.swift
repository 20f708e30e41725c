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
        /// `LiveSchema.predicted(layout)`, made the first time a planner of a pair from this
        /// version asks (its step's and its direct jump's share it).
        var schema: LiveSchema?
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

    private func slot(_ name: String) -> Slot {
        lock.lock()
        defer { lock.unlock() }
        let slot = slots[name] ?? Slot()
        slots[name] = slot
        return slot
    }

    /// The layout of the version `name`, nil when its model could not be read.
    func layout(of name: String) -> StoreLayout? {
        let slot = slot(name)
        slot.lock.lock()
        defer { slot.lock.unlock() }
        return layout(in: slot, name)
    }

    private func layout(in slot: Slot, _ name: String) -> StoreLayout? {
        if let known = slot.layout { return known }
        let layout = models(name).map { StoreLayout(model: $0.0, contents: $0.1, shelf: shelf) }
        slot.layout = .some(layout)
        return layout
    }

    /// The schema a store of version `name` has as Core Data creates it (`LiveSchema.predicted`
    /// of its layout), made once; nil when its model could not be read.
    func predictedSchema(of name: String) -> LiveSchema? {
        let slot = slot(name)
        slot.lock.lock()
        defer { slot.lock.unlock() }
        if let known = slot.schema { return known }
        guard let layout = layout(in: slot, name) else { return nil }
        let schema = LiveSchema.predicted(layout)
        slot.schema = schema
        return schema
    }
}

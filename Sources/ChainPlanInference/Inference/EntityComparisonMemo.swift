import Foundation

/// Compared entity pairs shared by the inferences of one chain that end at the same
/// destination version: a long history's direct jumps (each version to the last) compare the
/// same destination entities with source entities that mostly repeat from version to version
/// (WooCommerce: 115 jumps, 88 entities, each entity changing in a handful of versions).
///
/// What an entry covers: one call of the inference engine's `compareEntities` for a source
/// entity with a content (`EntityContent`: every field the comparison reads of the entity and
/// its resolved properties, positions left out) that differs from the destination entity's.
/// The entry is found under the destination entity's index, and matches only when
/// - the source content is equal (entity fields, resolved parent, every property with its
///   renaming identifier, type, flags, destination, inverse, …),
/// - the entity takes part in a hierarchy merge in both or in neither (`inMerge`),
/// - every fact the comparison read of the rest of the source model gives the same answer now
///   (`Probe`: where an entity's rows go in this inference, which is how the parent and every
///   relationship destination are judged; whether the source model has an entity of a
///   lower-cased name; whether an attribute removed from an abstract entity moves down into its
///   subentities).
/// Given equal content and equal answers the comparison runs the same path, so the entry holds
/// exactly its output: the changes, the entity mapping, the property lineage written (in
/// order) and the validation checks. Changes placed at a source property (removals, a
/// property that became transient or was replaced) are placed again at the current source's
/// property, on its file, line and column. The memo also keeps, per destination entity, the
/// set of its stored attributes' names and types that likely entity renames compare with.
///
/// Example (the tests run it): jumps to Note(title, folder → Folder) from two versions whose
/// Note lacks `folder` and sits on other lines compare Note once; the second jump's comparison
/// is a hit, located on its own lines. A source whose Folder is removed in the jump (the
/// relationship's destination is judged differently) is not a hit.
package final class EntityComparisonMemo: @unchecked Sendable {
    /// A fact of the source model (or of the inference's entity lineage) the comparison read,
    /// with the answer it got.
    enum Probe: Equatable, Sendable {
        /// `entityLineage[name]`: the destination entity the source entity's rows go to.
        case lineage(String, String?)
        /// Whether the source model has an entity of this lower-cased name.
        case sourceHasLowercasedName(String, Bool)
        /// Whether the attribute (second) removed from abstract source entity (first) moves
        /// down into its subentities.
        case movedDown(String, String, Bool)
    }

    /// One recorded comparison: what a look-up must find alike (the content, `inMerge`, the
    /// probes' answers) and what the comparison gave.
    struct Entry: Sendable {
        var content: EntityContent
        var inMerge: Bool
        var probes: [Probe]
        var changes: [ModelChange]
        var placements: [Placement]
        var mapping: InferredEntityMapping
        var lineage: [(PropertyKey, PropertyKey)]
        var unchanged: [(String, UnchangedEntityLineage)]
        var validation: [ValidationCheck]
    }

    /// A change placed at a source property: `change` indexes the entry's changes, `property`
    /// the entity's stored properties (as the comparison lists them), at that property's line
    /// and column in `file`.
    struct Placement: Sendable {
        /// The model file a placed change points into: the source's, or (a change reported on
        /// the destination's file at the source property's place) the destination's.
        enum File: Sendable { case source, destination }

        var change: Int
        var property: Int
        var file: File
    }

    /// The destination version every inference sharing this memo ends at.
    package let destination: String
    /// Entries kept per destination entity at most (a hostile history cannot grow a list to
    /// search without bound; a full list is searched but not extended).
    static let entriesPerEntity = 64

    private let lock = NSLock()
    private var entries: [Int: [Entry]] = [:]
    private let signatureSets = LockedCache<Int, Set<String>>()
    private(set) var hits = 0

    package init(destination: String) {
        self.destination = destination
    }

    /// The entries recorded for the destination entity at `index`.
    func candidates(for index: Int) -> [Entry] {
        lock.lock()
        defer { lock.unlock() }
        return entries[index] ?? []
    }

    func recordHit() {
        lock.lock()
        hits += 1
        lock.unlock()
    }

    /// The `name:type` set of the destination entity at `index`'s stored attributes (what likely
    /// entity renames compare), made once.
    func signatures(of index: Int, _ make: () -> Set<String>) -> Set<String> {
        signatureSets.value(for: index, make)
    }

    func insert(_ entry: Entry, for index: Int) {
        lock.lock()
        defer { lock.unlock() }
        if entries[index, default: []].count < Self.entriesPerEntity { entries[index, default: []].append(entry) }
    }
}

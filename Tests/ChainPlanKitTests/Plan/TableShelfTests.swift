import Foundation
import ChainPlanTestSupport
import Testing
@testable import ChainPlanCore
@testable import ChainPlanReaders
@testable import ChainPlanInference
@testable import ChainPlanPlanning

/// `StoreLayout.init(model:contents:shelf:)` takes a lone root entity's table from an earlier
/// version when its content and the facts its to-ones read are the same, and builds it when any
/// of them moves: the layout must equal `init(model:)` in every case, in either order of the
/// versions, and the shelf must really be used where nothing moved.
struct TableShelfTests {
    /// Versions laid out one after another as a chain does: each resolved view shares the
    /// contents of the one before (`ResolvedView(_:previous:)`), all layouts one shelf.
    final class History {
        let shelf = TableShelf()
        private var previous: ResolvedView?

        func layout(_ model: ObjectModel) -> StoreLayout {
            let view = ResolvedView(model, previous: previous)
            previous = view
            return StoreLayout(model: model, contents: view.contentNames, shelf: shelf)
        }
    }

    static let base = M(E("Note", [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]),
                        E("Folder", [.a("name", .string), .r("notes", to: "Note", many: true, inverse: "folder")]))

    /// (what moves, the later version): each changes what `Note`'s table reads, or nothing.
    static let later: [(String, ObjectModel)] = [
        ("nothing (an entity added elsewhere)", M(E("Note", [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]),
                                                   E("Folder", [.a("name", .string), .r("notes", to: "Note", many: true, inverse: "folder")]),
                                                   E("Tag", [.a("name", .string)]))),
        ("the inverse becomes ordered", M(E("Note", [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]),
                                          E("Folder", [.a("name", .string), .r("notes", to: "Note", many: true, ordered: true, inverse: "folder")]))),
        ("the destination gains a subentity", M(E("Note", [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]),
                                                E("Folder", [.a("name", .string), .r("notes", to: "Note", many: true, inverse: "folder")]),
                                                E("SmartFolder", parent: "Folder", [.a("query", .string)]))),
        ("the destination goes", M(E("Note", [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]))),
        ("a uniqueness constraint is added", M(E("Note", unique: [["title"]], [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]),
                                           E("Folder", [.a("name", .string), .r("notes", to: "Note", many: true, inverse: "folder")]))),
        ("the table name collides with an earlier root's", M(E("NOTE", [.a("x", .string)]),
                                                            E("Note", [.a("title", .string), .a("created", .date), .r("folder", to: "Folder", inverse: "notes")]),
                                                            E("Folder", [.a("name", .string), .r("notes", to: "Note", many: true, inverse: "folder")]))),
    ]

    @Test(arguments: later.indices)
    func equalsBuildingFromScratch(_ index: Int) {
        let (what, model) = Self.later[index]
        for order in [[Self.base, model, Self.base], [model, Self.base, model]] {
            let history = History()
            for version in order {
                #expect(history.layout(version) == StoreLayout(model: version), "\(what)")
            }
        }
    }

    @Test func anUnchangedTableIsTakenFromTheShelf() {
        let history = History()
        _ = history.layout(Self.base)
        #expect(history.shelf.taken == 0)
        _ = history.layout(Self.later[0].1)
        #expect(history.shelf.taken == 2) // Note and Folder; Tag is built
        _ = history.layout(Self.later[1].1)
        #expect(history.shelf.taken == 2) // Folder's content and Note's inverse fact changed: both built again
    }
}

extension CorpusTests {
    /// Every version of every corpus bundle, laid out in history order with one shelf (as a chain
    /// does), equals its layout built from scratch; the shelf is used.
    @Suite struct TableShelfCorpusTests {
        @Test func shelvedLayoutsEqualLayoutsBuiltFromScratch() {
            let loaded = SQLiteWorkMemoCorpusTests.loadedBundles()
            #expect(loaded.count > 10)
            var taken = 0
            for (path, bundle) in loaded {
                let history = TableShelfTests.History()
                for version in bundle.versions {
                    guard let model = version.model else { continue }
                    #expect(history.layout(model) == StoreLayout(model: model), "\(path): \(version.name)")
                }
                taken += history.shelf.taken
            }
            #expect(taken > 1_000)
        }
    }
}

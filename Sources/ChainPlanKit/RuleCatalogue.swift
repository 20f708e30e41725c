import ChainPlanCore
import ChainPlanPlanning
import ChainPlanStore
import Foundation

/// Every code chainplan reports, in code order: the catalogue `chainplan rules`, SARIF rule
/// metadata, `.chainplan.yml` and `Docs/rules.md` are built from. Each code is declared in its
/// rule's file; a test checks that this list names each of them once.
public enum RuleCatalogue {
    public static let all: [DiagnosticCode] = (PlanningRules.all + [
        .unreadableStore,
        .unknownStoreVersion,
        .ambiguousStoreVersion,
        .dataViolatesDestination,
        .deferredColumnsMismatch,
        .intermediateVersionExists,
        .passStoreNotAtSource,
    ]).sorted()

    /// Codes none of whose examples fires yet, each with the reason (the catalogue's tests
    /// exempt only these).
    /// - CP511 (a staged jump drops data that stepping keeps): its example was a rename whose
    ///   identifiers chained step by step, but under Core Data's exact key matching (reference
    ///   §4.1) a step keeps a property only when both sides share its key, so an inferred jump
    ///   keeps it too. It can still fire where a step keeps data through a mapping model the
    ///   jump cannot use; stage examples cannot express mapping models yet.
    /// - CP410 (a shipped mapping model re-made for other hashes): it compares the model
    ///   snapshots Xcode embeds in a mapping model, and examples write mapping models without
    ///   snapshots; `ShippedModelsTests` builds one with snapshots in a real repository.
    public static let withoutFiringExample: Set<DiagnosticCode> = [.stageJumpDropsData, .shippedMappingModelChanged]

    /// A JSON decoder for chainplan's documents: codes are looked up in the catalogue.
    public static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[.diagnosticCodes] = all
        return decoder
    }
}

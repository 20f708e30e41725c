// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "chainplan",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "ChainPlanKit", targets: ["ChainPlanKit"]),
        .executable(name: "chainplan", targets: ["chainplan"]),
        // `swift package chainplan-validate`: chainplan without a separate install.
        .plugin(name: "ChainPlanValidate", targets: ["ChainPlanValidate"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Yams 6 throws on the first duplicate mapping key and drops the other marks;
        // 5.0.x keeps every key with its mark, which CP102 reports one by one.
        .package(url: "https://github.com/jpsim/Yams", "5.0.1"..<"6.0.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        // SHA-256 / SHA-512 for Core Data's version hashes (BoringSSL-backed on Linux).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // SwiftParser for reading SwiftData `@Model` sources without a build.
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGraphviz",
            pkgConfig: "libgvc",
            providers: [.apt(["libgraphviz-dev"]), .brew(["graphviz"])]
        ),
        // The pipeline, lowest stage first: a target may depend only on the ones above it.
        // Docs/architecture.md draws this graph; ArchitectureDocTests checks the two agree.
        .target(name: "ChainPlanCore"),
        .target(
            name: "ChainPlanReaders",
            dependencies: ["ChainPlanCore", .product(name: "Yams", package: "Yams")]
        ),
        // SwiftData sources (`@Model`, `VersionedSchema`, `SchemaMigrationPlan`) read into object models.
        .target(
            name: "ChainPlanSwiftSource",
            dependencies: [
                "ChainPlanReaders",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftIfConfig", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "ChainPlanHashing",
            dependencies: ["ChainPlanReaders", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "ChainPlanGraph", dependencies: ["ChainPlanReaders"]),
        // What shipped, read from git: model bundles at past revisions.
        .target(name: "ChainPlanHistory", dependencies: ["ChainPlanReaders"]),
        .target(name: "ChainPlanInference", dependencies: ["ChainPlanHashing"]),
        .target(
            name: "ChainPlanPlanning",
            dependencies: ["ChainPlanGraph", "ChainPlanHistory", "ChainPlanInference", "ChainPlanSwiftSource", .product(name: "Yams", package: "Yams")]
        ),
        .target(
            name: "ChainPlanStore",
            dependencies: ["ChainPlanPlanning", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(name: "ChainPlanOutput", dependencies: ["ChainPlanStore", "CGraphviz"]),
        .target(
            name: "ChainPlanKit",
            dependencies: ["ChainPlanOutput", "ChainPlanStore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .target(
            name: "ChainPlanCLI",
            dependencies: [
                "ChainPlanKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "chainplan", dependencies: ["ChainPlanCLI"]),
        .plugin(
            name: "ChainPlanValidate",
            capability: .command(
                intent: .custom(verb: "chainplan-validate", description: "Validate the package's Core Data migration chain with chainplan"),
                permissions: []
            ),
            dependencies: ["chainplan"]
        ),
        // Locates ../shared (the corpus) for the tests and skips their corpus group when it is absent.
        .target(name: "ChainPlanTestSupport", path: "Tests/ChainPlanTestSupport"),
        .testTarget(
            name: "ChainPlanKitTests",
            dependencies: [
                "ChainPlanKit", "ChainPlanCore", "ChainPlanReaders", "ChainPlanHashing", "ChainPlanGraph", "ChainPlanHistory",
                "ChainPlanInference", "ChainPlanPlanning", "ChainPlanStore", "ChainPlanOutput", "ChainPlanSwiftSource",
                "ChainPlanTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ],
            resources: []
        ),
        .testTarget(
            name: "ChainPlanCLITests",
            dependencies: [
                "ChainPlanCLI", "ChainPlanKit", "ChainPlanCore", "ChainPlanReaders", "ChainPlanHashing", "ChainPlanGraph", "ChainPlanHistory",
                "ChainPlanInference", "ChainPlanPlanning", "ChainPlanStore", "ChainPlanOutput",
                "ChainPlanTestSupport", .product(name: "Yams", package: "Yams"), .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.0
// libFuzzer targets for chainplan's readers and escaping. Built and run by `make fuzz`
// (see Docs/development.md, "Fuzzing"); not part of the main package, whose users and
// CI never need the sanitizer runtime.
import PackageDescription

let targets = ["fuzz-spec", "fuzz-model", "fuzz-inference", "fuzz-mapping", "fuzz-archive", "fuzz-plist", "fuzz-escaping"]

let package = Package(
    name: "chainplan-fuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "chainplan", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(
            name: "FuzzHarness",
            dependencies: ["CFuzzer", .product(name: "ChainPlanKit", package: "chainplan")]
        ),
    ] + targets.map { name in
        .executableTarget(name: name, dependencies: ["FuzzHarness"])
    },
    swiftLanguageModes: [.v6]
)

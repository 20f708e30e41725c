// swift-tools-version:6.0
// In-process Graphviz rendering against the `dot` command on the same DOT text, a 5,000-version
// history, and memory over 100 renders. Built and run by `make bench GROUP=graph`; a separate
// package so that the project's own build never compiles it.
import PackageDescription

let package = Package(
    name: "GraphBench",
    dependencies: [.package(name: "chainplan", path: "../..")],
    targets: [
        .executableTarget(name: "GraphBench", dependencies: [.product(name: "ChainPlanKit", package: "chainplan")]),
    ],
    swiftLanguageModes: [.v6]
)

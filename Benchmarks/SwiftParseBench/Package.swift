// swift-tools-version:6.0
// swift-syntax's own parse of every .swift file under a folder, and nothing else: the baseline of
// `chainplan hash <Swift folder>` (read, resolve, map and hash). Built and run by
// `make bench GROUP=swiftdata`; a separate package so that the project's own build never compiles it.
import PackageDescription

let package = Package(
    name: "SwiftParseBench",
    dependencies: [.package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0")],
    targets: [
        .executableTarget(name: "SwiftParseBench", dependencies: [.product(name: "SwiftParser", package: "swift-syntax")]),
    ],
    swiftLanguageModes: [.v6]
)

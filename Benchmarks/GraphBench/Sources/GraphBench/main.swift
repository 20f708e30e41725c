// Graph rendering benchmark: in-process libgvc versus the `dot` command on the same DOT text, a
// 5,000-version history, and memory over 100 renders. Prints one JSON object on its last line.
@testable import ChainPlanOutput
import Foundation

func chain(_ count: Int, jumpsEvery: Int? = nil, branchesEvery: Int? = nil) -> Diagram {
    var nodes = (1...count).map { Diagram.Node(id: "Model \($0)") }
    nodes[count - 1].isTarget = true
    nodes[count - 1].isCurrentVersion = true
    var edges = (1..<count).map {
        Diagram.Edge(from: "Model \($0)", to: "Model \($0 + 1)", kind: $0 % 7 == 0 ? .heavyweight : .lightweight,
                     label: $0 % 7 == 0 ? "Mapping\($0)" : nil)
    }
    if let every = jumpsEvery {
        for start in stride(from: 1, to: count - every, by: every) {
            edges.append(.init(from: "Model \(start)", to: "Model \(start + every)", kind: .heavyweight,
                               isDirectJump: true, label: "Jump\(start)"))
        }
    }
    if let every = branchesEvery {
        for start in stride(from: every, to: count - 3, by: every) {
            nodes.append(.init(id: "Branch \(start)", isUnreachable: true))
            edges.append(.init(from: "Model \(start)", to: "Branch \(start)", kind: .failing))
        }
    }
    return Diagram(title: "bench", nodes: nodes, edges: edges)
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func dotCLI(_ dot: String) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["dot", "-Tsvg"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    let writer = Thread { input.fileHandleForWriting.write(Data(dot.utf8)); try? input.fileHandleForWriting.close() }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return data
}

func rss() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") { return Int(line.filter(\.isNumber)) ?? 0 }
    return 0
}

let runs = Int(ProcessInfo.processInfo.environment["RUNS"] ?? "") ?? 7
let expand = DOTWriter(options: .init(expand: true))
let limits = GraphvizRenderer.Limits(timeout: nil)

// 1. 1,000-version chain: in-process versus `dot -Tsvg`, alternating.
let dot1k = expand.write(chain(1_000))
_ = try GraphvizRenderer.render(dot: dot1k, format: .svg, limits: limits)  // warm-up (plugins, fonts)
var inProcess: [Double] = [], cli: [Double] = []
for _ in 0..<runs {
    inProcess.append(try seconds { _ = try GraphvizRenderer.render(dot: dot1k, format: .svg, limits: limits) })
    cli.append(try seconds { _ = try dotCLI(dot1k) })
}
let svg1k = try GraphvizRenderer.render(dot: dot1k, format: .svg, limits: limits)
var checks: [Double] = []
for _ in 0..<runs { checks.append(try seconds { try SVGSafety.check(svg1k) }) }
print(String(format: "1,000-version chain: SVG %d bytes, safety check median %.3f s (included below)", svg1k.count, median(checks)))
print(String(format: "1,000-version chain, SVG: in-process median %.3f s (min %.3f), dot -Tsvg median %.3f s (min %.3f), %d runs each",
             median(inProcess), inProcess.min() ?? 0, median(cli), cli.min() ?? 0, runs))

// 2. 5,000-version history (jumps every 10, failing dead-end branches every 50), expanded.
let history = chain(5_000, jumpsEvery: 10, branchesEvery: 50)
let dot5k = expand.write(history)
var times5k: [Double] = []
for _ in 0..<max(1, runs / 2) {
    times5k.append(try seconds { _ = try GraphvizRenderer.render(dot: dot5k, format: .svg, limits: limits) })
}
print(String(format: "5,000-version history (%d nodes, %d edges), expanded, SVG in-process: median %.3f s of %d",
             history.nodes.count, history.edges.count, median(times5k), times5k.count))
let plain5k = expand.write(chain(5_000))
let chain5k = try seconds { _ = try GraphvizRenderer.render(dot: plain5k, format: .svg, limits: limits) }
print(String(format: "5,000-version plain chain, expanded, SVG in-process: %.3f s", chain5k))
let collapsed = DOTWriter().write(history)
let collapsedTime = try seconds { _ = try GraphvizRenderer.render(dot: collapsed, format: .svg, limits: limits) }
print(String(format: "5,000-version history, default (collapsed) view, SVG in-process: %.3f s", collapsedTime))

// 3. Memory: 100 renders of a 400-version chain after a warm-up.
let dot400 = expand.write(chain(400))
for _ in 0..<10 { _ = try GraphvizRenderer.render(dot: dot400, format: .svg, limits: limits) }
let before = rss()
for _ in 0..<100 { _ = try GraphvizRenderer.render(dot: dot400, format: .svg, limits: limits) }
print("RSS over 100 renders of a 400-version chain: \(before) KiB -> \(rss()) KiB")

// The figures for Benchmarks/bench.py, on the last line.
let summary: [String: Double] = [
    "inprocess_1000": median(inProcess), "dot_1000": median(cli), "safety_1000": median(checks),
    "history_5000": median(times5k), "chain_5000": chain5k, "collapsed_5000": collapsedTime,
    "rss_before_kb": Double(before), "rss_after_kb": Double(rss()),
]
print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))

import CGraphviz
import ChainPlanCore
import Dispatch
import Foundation

/// An output format for a version graph.
package enum RenderFormat: String, CaseIterable, Sendable, Codable {
    /// Scalable vector graphics, checked to carry no active content.
    case svg
    /// A bitmap. Graphviz scales very large graphs down until they are unreadable: prefer SVG.
    case png
    /// A PDF document; its creation date is fixed so that output is reproducible.
    case pdf
    /// DOT text: the input, unchanged (no layout).
    case dot
    /// For ``GraphvizRenderer``, Graphviz's own `json` output (the laid-out graph with
    /// coordinates). For ``Diagram/rendered(as:writer:limits:)``, the diagram itself as JSON.
    case json

    /// Whether producing this format runs a Graphviz layout.
    package var needsLayout: Bool {
        switch self {
        case .svg, .png, .pdf, .json: true
        case .dot: false
        }
    }
}

/// Why a graph could not be rendered.
package enum RenderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Graphviz's layout engine or output plugins are not installed or not registered.
    case graphvizUnavailable(messages: [String])
    /// The DOT text did not parse.
    case invalidDOT(messages: [String])
    /// The DOT text is larger than ``GraphvizRenderer/Limits/maxDOTBytes``.
    case inputTooLarge(bytes: Int, limit: Int)
    /// The graph exceeds the node or edge budget for an in-process layout.
    case graphTooLarge(nodes: Int, edges: Int, maxNodes: Int, maxEdges: Int)
    /// Graphviz reported a failure while laying out the graph.
    case layoutFailed(messages: [String])
    /// Graphviz reported a failure while writing the output.
    case renderFailed(format: RenderFormat, messages: [String])
    /// The layout did not finish within the time limit (it goes on in the background).
    case timedOut(seconds: Double)
    /// An earlier layout that timed out still holds Graphviz; no other render can start.
    case busy(seconds: Double)
    /// The SVG Graphviz produced contains something that could run in a browser.
    case activeContent(String)
    /// The SVG Graphviz produced is not well-formed XML (the parser's reason).
    case malformedSVG(String)

    package var description: String {
        func detail(_ messages: [String]) -> String {
            messages.isEmpty ? "" : ": " + messages.joined(separator: "; ")
        }
        switch self {
        case .graphvizUnavailable(let messages):
            return "Graphviz cannot lay out or write this format\(detail(messages)); install Graphviz "
                + "(e.g. 'apt-get install graphviz libgraphviz-dev'); if it is installed, register its plugins "
                + "with 'dot -c' (as root); or use '--format dot' and run 'dot' yourself"
        case .invalidDOT(let messages):
            return "the DOT text could not be parsed\(detail(messages))"
        case .inputTooLarge(let bytes, let limit):
            return "the DOT text is \(bytes) bytes, more than the \(limit)-byte limit; use '--format dot' and run 'dot' yourself"
        case .graphTooLarge(let nodes, let edges, let maxNodes, let maxEdges):
            return "the graph has \(nodes) nodes and \(edges) edges, more than the in-process layout budget "
                + "(\(maxNodes) nodes, \(maxEdges) edges); collapse it, or use '--format dot' and run 'dot' yourself"
        case .layoutFailed(let messages):
            return "Graphviz could not lay out the graph\(detail(messages))"
        case .renderFailed(let format, let messages):
            return "Graphviz could not write \(format.rawValue)\(detail(messages))"
        case .timedOut(let seconds):
            return "Graphviz did not finish the layout within \(Self.format(seconds)) s; "
                + "use '--format dot' and run 'dot' yourself, or collapse the graph"
        case .busy(let seconds):
            return "an earlier Graphviz layout that timed out is still running; gave up after waiting \(Self.format(seconds)) s"
        case .activeContent(let what):
            return "the SVG output contains active content (\(what)) and was refused"
        case .malformedSVG(let reason):
            return "the SVG output is not well-formed XML (\(reason)) and was refused"
        }
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// Renders DOT text with Graphviz's C library (libgvc), inside the process.
///
/// **Serialised.** Graphviz is not thread safe, so every Graphviz call of the process goes
/// through one lock, and one Graphviz context is created lazily and kept for the life of the
/// process. Each render reads the graph, lays it out, writes the output, hands the output over,
/// and then frees the layout and closes the graph, on every path, failures included, before the
/// next render starts (freeing a long history's layout takes milliseconds the caller need not
/// wait for).
///
/// **Bounded.** A layout cannot be interrupted inside the process, so three guards apply:
/// - Budget: DOT text over ``Limits/maxDOTBytes``, or a graph with more than
///   ``Limits/maxNodes`` nodes or ``Limits/maxEdges`` edges, is refused before any layout, with
///   an error that suggests `--format dot`.
/// - Effort: ``DOTWriter`` bounds Graphviz's iterations for dense and large graphs.
/// - Wall clock: the layout runs on a dedicated thread (with a 64 MiB stack, since Graphviz
///   recurses along long chains), started with the first render and kept for the next ones,
///   which it takes in the order they came; the caller waits at most ``Limits/timeout`` and then gets
///   ``RenderError/timedOut(seconds:)``. The abandoned layout finishes in the background and
///   keeps Graphviz busy meanwhile: renders started before it ends wait for it up to their own
///   time limit, then fail with ``RenderError/busy(seconds:)``. A command-line process simply
///   exits after reporting the error.
///
/// **Quiet.** Graphviz's warnings and errors are collected (never printed by this library):
/// errors go into the thrown ``RenderError``, warnings into ``Output/warnings``. Messages that
/// font libraries print directly to the standard error stream are outside its control.
///
/// **Output.** SVG is returned as Graphviz writes it, including its
/// `<!-- Generated by graphviz version … -->` comment (so the bytes depend on the installed
/// Graphviz version, and are identical from run to run with one installation); it is parsed
/// and refused if it holds a script, an event-handler (`on…`) attribute, a link (`href`), a
/// `javascript:` value, an animation or embedded foreign content. PDF gets its creation date
/// replaced by 1970-01-01 (same length, so the cross-reference offsets stay valid). PNG and
/// Graphviz JSON are returned unchanged. `.dot` returns the input without calling Graphviz.
/// A drawing too large for its format is scaled down by laying it out again with a `size`:
/// PNG to at most 30,000 pixels a side and 40 megapixels (cairo's own limit is 32,767, and
/// past it cairo prints to standard error), PDF to at most 200 inches a side.
package struct GraphvizRenderer: Sendable {
    /// Budgets for one render.
    package struct Limits: Sendable, Hashable {
        /// The largest DOT text accepted, in UTF-8 bytes.
        package var maxDOTBytes: Int
        /// The most nodes laid out (subgraph nodes included).
        package var maxNodes: Int
        /// The most edges laid out.
        package var maxEdges: Int
        /// The longest the caller waits for a render, or nil to wait without limit.
        package var timeout: Duration?

        /// Creates limits. The defaults admit a 5,000-version history (a few seconds) and
        /// refuse graphs whose layout could take minutes.
        package init(
            maxDOTBytes: Int = 64 << 20,
            maxNodes: Int = 6_000,
            maxEdges: Int = 12_000,
            timeout: Duration? = .seconds(60)
        ) {
            self.maxDOTBytes = maxDOTBytes
            self.maxNodes = maxNodes
            self.maxEdges = maxEdges
            self.timeout = timeout
        }
    }

    /// A rendered graph and the warnings Graphviz reported while producing it.
    package struct Output: Sendable, Hashable {
        package var data: Data
        /// Graphviz's warnings, one per line, without the `Warning: ` prefix.
        package var warnings: [String]
    }

    /// Renders DOT text in the given format.
    ///
    /// Blocks the calling thread until the output is ready or the time limit passes.
    package static func render(dot: String, format: RenderFormat, limits: Limits = Limits()) throws -> Data {
        try renderWithWarnings(dot: dot, format: format, limits: limits).data
    }

    /// Renders DOT text in the given format, keeping Graphviz's warnings.
    ///
    /// Blocks the calling thread until the output is ready or the time limit passes.
    package static func renderWithWarnings(
        dot: String,
        format: RenderFormat,
        limits: Limits = Limits()
    ) throws -> Output {
        let bytes = dot.utf8.count
        guard bytes <= limits.maxDOTBytes else {
            throw RenderError.inputTooLarge(bytes: bytes, limit: limits.maxDOTBytes)
        }
        guard format.needsLayout else {
            return Output(data: Data(dot.utf8), warnings: [])
        }
        // A C string ends at the first NUL: refuse rather than lay out a truncated graph.
        guard !dot.utf8.contains(0) else {
            throw RenderError.invalidDOT(messages: ["the DOT text contains a NUL character"])
        }
        var output = try GraphvizEngine.shared.run(dot: dot, format: format, limits: limits)
        switch format {
        case .svg:
            try SVGSafety.check(output.data)
        case .pdf:
            output.data = PDFNormalizer.fixingCreationDate(output.data)
        case .png, .json, .dot:
            break
        }
        return output
    }
}

// MARK: - Engine

/// The Graphviz messages of the call in progress. Touched only by `collectGraphvizMessage`
/// and by `GraphvizEngine` while it holds its lock, which every Graphviz call runs under.
nonisolated(unsafe) private var graphvizMessages = ""

/// Receives Graphviz's messages (installed with `agseterrf`) instead of standard error.
private func collectGraphvizMessage(_ text: UnsafeMutablePointer<CChar>?) -> Int32 {
    if let text {
        graphvizMessages += String(cString: text)
        if graphvizMessages.utf8.count > 1 << 20 {
            graphvizMessages = String(graphvizMessages.prefix(1 << 20))
        }
    }
    return 0
}

/// The process-wide Graphviz context and the lock that serialises every Graphviz call.
///
/// `@unchecked`: it holds Graphviz's C state (`context`, a pointer), which is touched only while
/// `lock` is held, on the worker thread; the lock is taken with a deadline (`lock(before:)`), which
/// `Locked` does not offer.
final class GraphvizEngine: @unchecked Sendable {
    static let shared = GraphvizEngine()

    /// Held for the whole of each render; guards `context` and `graphvizMessages`.
    private let lock = NSLock()
    private var context: OpaquePointer?

    /// The thread every render runs on.
    private let worker = Worker()

    private init() {}

    /// One long-lived thread with a 64 MiB stack, started by the first render, running the
    /// renders handed to it one after the other (a thread per render cost as much as a small
    /// layout). A render stuck in Graphviz holds it up exactly as it holds up the lock: the
    /// renders queued behind it time out as `busy`, and are skipped once their caller has left.
    private final class Worker: Sendable {
        /// The renders handed over and not yet started, and whether the thread runs.
        private let queue = Locked((work: [@Sendable () -> Void](), started: false))
        /// Signalled once per render handed over.
        private let waiting = DispatchSemaphore(value: 0)

        func submit(_ work: @escaping @Sendable () -> Void) {
            let start = queue.withLock { queue in
                queue.work.append(work)
                defer { queue.started = true }
                return !queue.started
            }
            if start {
                let thread = Thread { [self] in loop() }
                thread.stackSize = 64 << 20
                thread.name = "chainplan.graphviz"
                thread.start()
            }
            waiting.signal()
        }

        private func loop() -> Never {
            while true {
                waiting.wait()
                let work = queue.withLock { $0.work.removeFirst() }
                work()
            }
        }
    }

    /// One render's hand-over between the waiting caller and the worker thread.
    private final class Job: Sendable {
        enum Stage: Sendable { case waitingForLock, running, finished }
        struct State: Sendable {
            var stage = Stage.waitingForLock
            var abandoned = false
            var result: Result<GraphvizRenderer.Output, RenderError>?
        }
        let state = Locked(State())
        let done = DispatchSemaphore(value: 0)
    }

    /// Renders on the Graphviz thread, waiting at most `limits.timeout`. `engine` is the
    /// layout engine (always `dot` outside tests).
    func run(
        dot: String,
        format: RenderFormat,
        limits: GraphvizRenderer.Limits,
        engine: String = "dot"
    ) throws -> GraphvizRenderer.Output {
        let job = Job()
        let seconds = limits.timeout.map(Self.seconds)
        let deadline = seconds.map { Date().addingTimeInterval($0) } ?? Date.distantFuture
        worker.submit { [self] in
            let acquired = lock.lock(before: deadline)
            let proceeds = job.state.withLock { state in
                guard acquired, !state.abandoned else {
                    state.stage = .finished
                    state.result = .failure(.busy(seconds: seconds ?? 0))
                    return false
                }
                state.stage = .running
                return true
            }
            guard proceeds else {
                if acquired { lock.unlock() }
                job.done.signal()
                return
            }
            let rendered = render(dot: dot, format: format, limits: limits, engine: engine)
            job.state.withLock { state in
                state.stage = .finished
                state.result = rendered.result
            }
            job.done.signal()
            // The caller has its output: the graph is freed while it goes on (a long
            // history's layout takes milliseconds to free), still holding Graphviz's lock.
            release(rendered.graph)
            lock.unlock()
        }

        if let seconds {
            let nanoseconds = Int(min(seconds, 1e9) * 1e9)
            if job.done.wait(timeout: .now() + .nanoseconds(nanoseconds)) == .timedOut {
                let timedOut: RenderError? = job.state.withLock { state in
                    switch state.stage {
                    case .finished:
                        return nil
                    case .waitingForLock:
                        state.abandoned = true
                        return .busy(seconds: seconds)
                    case .running:
                        state.abandoned = true
                        return .timedOut(seconds: seconds)
                    }
                }
                if let timedOut { throw timedOut }
            }
        } else {
            job.done.wait()
        }
        switch job.state.withLock({ $0.result }) {
        case .success(let output): return output
        case .failure(let error): throw error
        case nil: throw RenderError.layoutFailed(messages: ["the layout thread ended without a result"])
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        max(0, duration.seconds)
    }

    /// A render's result, and the graph it read (nil when none was read), which the caller
    /// frees with ``release(_:)`` once the result is handed over.
    private struct Rendered {
        var result: Result<GraphvizRenderer.Output, RenderError>
        var graph: UnsafeMutablePointer<Agraph_t>?
    }

    /// Frees a rendered graph's layout and closes it. Call only while holding `lock`.
    private func release(_ graph: UnsafeMutablePointer<Agraph_t>?) {
        guard let graph else { return }
        // gvFreeLayout is safe on a graph whose layout failed or never ran.
        if let context { gvFreeLayout(context, graph) }
        agclose(graph)
    }

    /// The whole Graphviz sequence but for freeing the graph (``release(_:)``). Call only while
    /// holding `lock`.
    private func render(
        dot: String,
        format: RenderFormat,
        limits: GraphvizRenderer.Limits,
        engine: String
    ) -> Rendered {
        graphvizMessages = ""
        guard let context = makeContext() else {
            return Rendered(result: .failure(.graphvizUnavailable(messages: takeMessages().errors)), graph: nil)
        }
        _ = agreseterrors()
        guard let graph = dot.withCString({ agmemread($0) }) else {
            return Rendered(result: .failure(.invalidDOT(messages: takeMessages().errors)), graph: nil)
        }
        let result = layOutAndWrite(graph, context: context, format: format, limits: limits, engine: engine)
        return Rendered(result: result, graph: graph)
    }

    /// The process's Graphviz context, created on first use (nil when Graphviz cannot make one).
    private func makeContext() -> OpaquePointer? {
        if context == nil {
            _ = agseterrf(collectGraphvizMessage)
            _ = agseterr(AGWARN)
            context = gvContext()
        }
        return context
    }

    /// Lays out a graph read from DOT text and writes it in `format`.
    private func layOutAndWrite(
        _ graph: UnsafeMutablePointer<Agraph_t>,
        context: OpaquePointer,
        format: RenderFormat,
        limits: GraphvizRenderer.Limits,
        engine: String
    ) -> Result<GraphvizRenderer.Output, RenderError> {
        let nodes = Int(agnnodes(graph))
        let edges = Int(agnedges(graph))
        guard nodes <= limits.maxNodes, edges <= limits.maxEdges else {
            _ = takeMessages()
            return .failure(.graphTooLarge(nodes: nodes, edges: edges, maxNodes: limits.maxNodes, maxEdges: limits.maxEdges))
        }

        guard gvLayout(context, graph, engine) == 0 else {
            let messages = takeMessages()
            if Self.meansPluginsMissing(messages.errors) {
                return .failure(.graphvizUnavailable(messages: messages.errors))
            }
            return .failure(.layoutFailed(messages: messages.errors))
        }

        if let size = Self.sizeLimit(graph, format: format) {
            // Too large a page for the format: lay out again with a `size` that scales the
            // drawing down to fit (the layout itself is unchanged).
            Self.setAttribute(graph, "size", size)
            gvFreeLayout(context, graph)
            guard gvLayout(context, graph, engine) == 0 else {
                return .failure(.layoutFailed(messages: takeMessages().errors))
            }
        }

        var buffer: UnsafeMutablePointer<CChar>?
        var length: UInt32 = 0
        let status = gvRenderData(context, graph, format.rawValue, &buffer, &length)
        guard status == 0, let buffer else {
            if let buffer { gvFreeRenderData(buffer) }
            let messages = takeMessages()
            if Self.meansPluginsMissing(messages.errors) {
                return .failure(.graphvizUnavailable(messages: messages.errors))
            }
            return .failure(.renderFailed(format: format, messages: messages.errors))
        }
        // The output is handed over as it is (a drawing of a long history is megabytes):
        // Graphviz's buffer is freed with the Data.
        let data = Data(bytesNoCopy: buffer, count: Int(length), deallocator: .custom { pointer, _ in
            gvFreeRenderData(pointer.assumingMemoryBound(to: CChar.self))
        })
        return .success(GraphvizRenderer.Output(data: data, warnings: takeMessages().warnings))
    }

    /// The largest page a format can carry: sides and area in output units (pixels for PNG
    /// at the graph's dpi; points for PDF, whose viewers refuse pages over 200 inches).
    private struct PageLimit {
        var unitsPerPoint: Double
        var maxSide: Double
        var maxArea: Double

        static let png = PageLimit(unitsPerPoint: 96.0 / 72, maxSide: 30_000, maxArea: 40_000_000)
        static let pdf = PageLimit(unitsPerPoint: 1, maxSide: 14_400, maxArea: .infinity)
    }

    /// A `size` attribute value (inches) that keeps a laid-out graph within the format's page
    /// limit, or nil when it already fits (or the format has no limit).
    ///
    /// PNG: cairo refuses 32,767 pixels or more on a side (it then scales the image itself,
    /// printing a warning to standard error after allocating the full-size image); the area
    /// limit keeps the RGBA buffer near 160 MB.
    private static func sizeLimit(_ graph: UnsafeMutablePointer<Agraph_t>, format: RenderFormat) -> String? {
        var limit: PageLimit
        switch format {
        case .png:
            limit = .png
            let dpi = [attribute(graph, "dpi"), attribute(graph, "resolution")]
                .compactMap { $0.flatMap(Double.init) }
                .first { $0 > 0 } ?? 96
            limit.unitsPerPoint = min(max(dpi, 1), 10_000) / 72
        case .pdf:
            limit = .pdf
        case .svg, .json, .dot:
            return nil
        }
        // gvLayout leaves the bounding box in points as "llx lly urx ury" (commas elsewhere).
        let box = (attribute(graph, "bb") ?? "")
            .split(whereSeparator: { $0 == "," || $0 == " " })
            .compactMap { Double($0) }
        guard box.count == 4, box.allSatisfy(\.isFinite) else { return nil }
        let widthPoints = abs(box[2] - box[0]) + 8  // plus the default 4-point pad on each side
        let heightPoints = abs(box[3] - box[1]) + 8
        let width = widthPoints * limit.unitsPerPoint
        let height = heightPoints * limit.unitsPerPoint
        let scale = min(1, limit.maxSide / width, limit.maxSide / height, (limit.maxArea / (width * height)).squareRoot())
        guard scale < 1 else { return nil }
        let inches = { (points: Double) in NumberText.fixed(points * scale * 0.98 / 72, digits: 3) }
        return "\(inches(widthPoints)),\(inches(heightPoints))"
    }

    private static func attribute(_ graph: UnsafeMutablePointer<Agraph_t>, _ name: String) -> String? {
        var cName = Array(name.utf8CString)
        return cName.withUnsafeMutableBufferPointer { pointer -> String? in
            guard let base = pointer.baseAddress, let value = agget(UnsafeMutableRawPointer(graph), base) else { return nil }
            let text = String(cString: value)
            return text.isEmpty ? nil : text
        }
    }

    private static func setAttribute(_ graph: UnsafeMutablePointer<Agraph_t>, _ name: String, _ value: String) {
        var cName = Array(name.utf8CString)
        var cValue = Array(value.utf8CString)
        var cDefault = Array("".utf8CString)
        cName.withUnsafeMutableBufferPointer { namePointer in
            cValue.withUnsafeMutableBufferPointer { valuePointer in
                cDefault.withUnsafeMutableBufferPointer { defaultPointer in
                    if let name = namePointer.baseAddress, let value = valuePointer.baseAddress,
                       let empty = defaultPointer.baseAddress {
                        _ = agsafeset(UnsafeMutableRawPointer(graph), name, value, empty)
                    }
                }
            }
        }
    }

    /// Splits and clears the collected messages. Call only while holding `lock`.
    private func takeMessages() -> (errors: [String], warnings: [String]) {
        defer { graphvizMessages = "" }
        var errors: [String] = []
        var warnings: [String] = []
        var current: Bool? = nil  // true: error, false: warning
        for rawLine in graphvizMessages.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("Error: ") {
                current = true
                line.removeFirst("Error: ".count)
            } else if line.hasPrefix("Warning: ") {
                current = false
                line.removeFirst("Warning: ".count)
            }
            guard !line.isEmpty else { continue }
            if current == false { warnings.append(line) } else { errors.append(line) }
        }
        return (errors, warnings)
    }

    private static func meansPluginsMissing(_ messages: [String]) -> Bool {
        messages.contains {
            $0.contains("no layout engine support") || $0.contains("not recognized")
                || $0.contains("No formats found") || $0.contains("dot -c")
        }
    }
}

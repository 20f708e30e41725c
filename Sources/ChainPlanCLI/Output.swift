import Foundation

/// Writes text to standard output or error without going through `print` buffering rules.
struct FileHandleOutput: Sendable {
    let handle: FileHandle

    static let standardOutput = FileHandleOutput(handle: .standardOutput)
    static let standardError = FileHandleOutput(handle: .standardError)

    func write(_ text: String) {
        write(Data(text.utf8))
    }

    func write(_ data: Data) {
        if let capture = OutputCapture.current, handle === FileHandle.standardOutput || handle === FileHandle.standardError {
            capture.append(data, error: handle === FileHandle.standardError)
        } else {
            handle.write(data)
        }
    }

    /// Appends `data` to the file at `path`, creating it when missing.
    static func append(_ data: Data, to path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            return try write(data, to: path)
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            try handle.seekToEnd()
            try handle.write(contentsOf: data)
        } catch {
            throw UsageError("cannot append to '\(path)': \(error.localizedDescription)")
        }
    }

    /// Writes `data` to the file at `path`, or to standard output when `path` is nil. A file
    /// written is said on standard error (`chainplan: wrote 'review.md' (12345 bytes)`) unless
    /// the command says it in its own words (`announce: false`).
    static func write(_ data: Data, to path: String?, announce: Bool = true) throws {
        guard let path else { return standardOutput.write(data) }
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("cannot write '\(path)': \(error.localizedDescription)")
        }
        if announce { standardError.write(wroteLine(path, bytes: data.count) + "\n") }
    }

    /// `chainplan: wrote 'path' (N bytes)`.
    static func wroteLine(_ path: String, bytes: Int) -> String {
        "chainplan: wrote '\(path)' (\(bytes) byte\(bytes == 1 ? "" : "s"))"
    }
}

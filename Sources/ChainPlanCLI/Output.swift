import Foundation

/// Writes text to standard output or error without going through `print` buffering rules.
struct FileHandleOutput: Sendable {
    let handle: FileHandle

    static let standardOutput = FileHandleOutput(handle: .standardOutput)
    static let standardError = FileHandleOutput(handle: .standardError)

    func write(_ text: String) {
        handle.write(Data(text.utf8))
    }

    func write(_ data: Data) {
        handle.write(data)
    }

    /// Writes `data` to the file at `path`, or to standard output when `path` is nil.
    static func write(_ data: Data, to path: String?) throws {
        guard let path else { return standardOutput.write(data) }
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("cannot write '\(path)': \(error.localizedDescription)")
        }
    }
}

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
}

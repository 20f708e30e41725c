import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read.
public enum FileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    case missing(String)
    case notRegularFile(String, kind: String)
    case tooLarge(String, bytes: Int, limit: Int)
    case unreadable(String, reason: String)
    case symlinkLoop(String)

    public var description: String {
        switch self {
        case .missing(let path): "'\(path)' does not exist"
        case .notRegularFile(let path, let kind): "'\(path)' is \(kind), not a regular file"
        case .tooLarge(let path, let bytes, let limit): "'\(path)' is \(bytes) bytes, over the limit of \(limit) bytes"
        case .unreadable(let path, let reason): "'\(path)' cannot be read: \(reason)"
        case .symlinkLoop(let path): "'\(path)' is a symbolic link loop"
        }
    }

    /// The problem without the path, for messages that name the file their own way.
    public var reason: String {
        switch self {
        case .missing: "does not exist"
        case .notRegularFile(_, let kind): "is \(kind), not a regular file"
        case .tooLarge(_, let bytes, let limit): "is \(bytes) bytes, over the limit of \(limit) bytes"
        case .unreadable(_, let reason): "cannot be read: \(reason)"
        case .symlinkLoop: "is a symbolic link loop"
        }
    }
}

/// Bounded, type-checked file reading. Never opens a FIFO or device (which could block
/// forever) and never reads more than a limit.
public enum FileAccess {
    /// The kind of a file system object, following symbolic links.
    public enum Kind: Sendable, Equatable {
        case regular(size: Int)
        case directory
        case other(String)
    }

    /// What is at `path`, following symlinks; nil when nothing is there.
    public static func kind(at path: String) -> Result<Kind, FileProblem> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ELOOP { return .failure(.symlinkLoop(path)) }
            if code == ENOENT || code == ENOTDIR { return .failure(.missing(path)) }
            return .failure(.unreadable(path, reason: String(cString: strerror(code))))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .success(.regular(size: Int(info.st_size)))
        case S_IFDIR: return .success(.directory)
        case S_IFIFO: return .success(.other("a FIFO"))
        case S_IFSOCK: return .success(.other("a socket"))
        case S_IFCHR, S_IFBLK: return .success(.other("a device"))
        default: return .success(.other("not a regular file"))
        }
    }

    /// Reads a regular file of at most `maxBytes` bytes.
    public static func readRegularFile(at url: URL, maxBytes: Int) -> Result<Data, FileProblem> {
        let path = url.path
        switch kind(at: path) {
        case .failure(let problem):
            return .failure(problem)
        case .success(.directory):
            return .failure(.notRegularFile(path, kind: "a directory"))
        case .success(.other(let kind)):
            return .failure(.notRegularFile(path, kind: kind))
        case .success(.regular(let size)):
            if size > maxBytes { return .failure(.tooLarge(path, bytes: size, limit: maxBytes)) }
        }
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            return .failure(.unreadable(path, reason: String(cString: strerror(errno))))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            // Read one byte more than allowed, so a file that grew after stat is still refused.
            let data = try handle.read(upToCount: min(maxBytes, Int.max - 1) + 1) ?? Data()
            if data.count > maxBytes { return .failure(.tooLarge(path, bytes: data.count, limit: maxBytes)) }
            return .success(data)
        } catch {
            return .failure(.unreadable(path, reason: "\(error)"))
        }
    }

    /// The canonical absolute path (symlinks resolved), or a problem (missing, loop).
    public static func canonicalPath(_ path: String) -> Result<String, FileProblem> {
        guard let resolved = realpath(path, nil) else {
            let code = errno
            if code == ELOOP { return .failure(.symlinkLoop(path)) }
            if code == ENOENT || code == ENOTDIR { return .failure(.missing(path)) }
            return .failure(.unreadable(path, reason: String(cString: strerror(code))))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }
}

/// Display paths: relative to a base directory when the file lies below it, else as given.
public enum DisplayPath {
    /// `url` as the user should read it: relative to `base` when the two share a folder
    /// below the root (`Chains/notas/chain.json`, `../shared/corpus/…`), absolute otherwise
    /// (`/etc/passwd` stays absolute rather than becoming `../../etc/passwd`).
    public static func make(_ url: URL, relativeTo base: URL) -> String {
        let path = url.standardizedFileURL.path
        let first = url.standardizedFileURL.pathComponents.dropFirst().first
        guard first != nil, first == base.standardizedFileURL.pathComponents.dropFirst().first else { return path }
        return relativePath(of: url, from: base)
    }

    /// The path of `target` relative to `directory` (both absolute, standardized).
    package static func relativePath(of target: URL, from directory: URL) -> String {
        let targetParts = target.standardizedFileURL.pathComponents
        let baseParts = directory.standardizedFileURL.pathComponents
        var common = 0
        while common < min(targetParts.count, baseParts.count), targetParts[common] == baseParts[common] { common += 1 }
        let ups = Array(repeating: "..", count: baseParts.count - common)
        let rest = Array(targetParts[common...])
        let parts = ups + rest
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// The current working directory as a URL.
    public static var currentDirectory: URL {
        URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
    }
}

/// Line and column arithmetic for messages.
package enum TextPosition {
    /// 1-based line and column (in Unicode scalars) of `index` in `text`.
    package static func position(of index: String.UnicodeScalarView.Index, in text: String) -> (Int, Int) {
        var line = 1
        var column = 1
        for scalar in text.unicodeScalars[..<index] {
            if scalar == "\n" {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return (line, column)
    }

    /// Parsers report errors at end of input one line past the last; point at the last
    /// character instead, where an editor can show it.
    package static func clamp(line: Int?, column: Int?, in text: String) -> (Int?, Int?) {
        guard let line else { return (nil, column) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard line > lines.count, let last = lines.last else { return (line, column) }
        return (lines.count, last.unicodeScalars.count + 1)
    }

    /// 1-based line and column of the first byte that is not valid UTF-8.
    package static func firstInvalidUTF8(in data: Data) -> (Int, Int) {
        var line = 1
        var column = 1
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            // ASCII needs no validation (most of any file): only multi-byte sequences build a String.
            if byte < 0x80 {
                if byte == 0x0A {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
                continue
            }
            let length: Int
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return (line, column)
            }
            guard index + length <= data.endIndex,
                  String(validating: data[index..<(index + length)], as: UTF8.self) != nil
            else { return (line, column) }
            column += 1
            index += length
        }
        return (line, column)
    }
}

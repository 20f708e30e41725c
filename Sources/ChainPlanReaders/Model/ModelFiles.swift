import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// File system access for model bundles: no symlink following unless asked, no blocking opens
/// (FIFOs, devices), bounded reads.
package enum ModelFiles {
    /// What is at a path, without following a final symbolic link.
    package enum Kind: Equatable {
        case missing
        case regular(size: Int)
        case directory
        case symbolicLink
        case other(String)
        case error(String)
    }

    package static func kind(at path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .missing }
            return .error(String(cString: strerror(code)))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regular(size: Int(info.st_size))
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .other("a FIFO")
        case S_IFSOCK: return .other("a socket")
        case S_IFCHR, S_IFBLK: return .other("a device")
        default: return .other("not a regular file")
        }
    }

    /// The canonical absolute path (every symlink resolved), or why there is none.
    static func canonicalPath(_ path: String) -> Result<String, Failure> {
        guard let resolved = realpath(path, nil) else {
            let code = errno
            if code == ELOOP { return .failure(Failure("is a symbolic link loop")) }
            if code == ENOENT || code == ENOTDIR { return .failure(Failure("does not exist")) }
            return .failure(Failure("cannot be read: \(String(cString: strerror(code)))"))
        }
        defer { free(resolved) }
        return .success(String(cString: resolved))
    }

    /// A reason, phrased to follow a quoted path ("'X' is a directory").
    struct Failure: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Reads the regular file at `path` (not following a final symlink) if it has at most
    /// `maxBytes` bytes.
    static func readRegularFile(at path: String, maxBytes: Int) -> Result<Data, Failure> {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP { return .failure(Failure("is a symbolic link")) }
            if code == ENOENT { return .failure(Failure("does not exist")) }
            return .failure(Failure("cannot be read: \(String(cString: strerror(code)))"))
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            return .failure(Failure("cannot be read: \(String(cString: strerror(errno)))"))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return .failure(Failure((info.st_mode & S_IFMT) == S_IFDIR ? "is a directory, not a file" : "is not a regular file"))
        }
        if Int(info.st_size) > maxBytes {
            return .failure(Failure("is \(info.st_size) bytes, over the limit of \(maxBytes) bytes"))
        }
        do {
            // One byte more than allowed, so a file that grew after fstat is still refused.
            let data = try handle.read(upToCount: min(maxBytes, Int.max - 1) + 1) ?? Data()
            if data.count > maxBytes {
                return .failure(Failure("is over the limit of \(maxBytes) bytes"))
            }
            return .success(data)
        } catch {
            return .failure(Failure("cannot be read: \(error.localizedDescription)"))
        }
    }

    /// Resolves a path inside the bundle whose canonical root is `root`: a symlink is followed
    /// only when its target stays inside the bundle.
    static func resolveInside(_ path: String, root: String) -> Result<String, Failure> {
        switch kind(at: path) {
        case .symbolicLink:
            switch canonicalPath(path) {
            case .failure(let failure):
                return .failure(Failure("is a symbolic link that cannot be followed: it \(failure.reason)"))
            case .success(let target):
                guard target.hasPrefix(root + "/") else {
                    return .failure(Failure("is a symbolic link to '\(target)', outside the bundle"))
                }
                return .success(target)
            }
        default:
            return .success(path)
        }
    }
}

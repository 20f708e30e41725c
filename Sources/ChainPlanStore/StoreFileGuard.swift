import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChainPlanCore

/// The files of a store that a command must never write: the store file, its `-wal`, `-shm` and
/// `-journal`, and everything inside its `.<name>_SUPPORT/` folder.
///
/// An output path conflicts when it resolves to one of them: by canonical path (symbolic links
/// followed, also dangling ones and links to files that do not exist yet, whose target is where
/// a write would land) or, for files that exist, by device and inode (hard links). Both the
/// store path as given and its canonical path are protected (SQLite names side files after the
/// resolved path; the given one costs nothing to protect as well).
package struct StoreFileGuard: Sendable {
    /// Absolute paths of the store and its side files.
    let files: Set<String>
    /// Absolute paths of the support folders.
    let supportFolders: Set<String>
    /// Device and inode of every existing protected file (support folder contents included).
    let identities: Set<FileIdentity>

    struct FileIdentity: Hashable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// Entries of the support folder walked for inodes, at most.
    static let maxSupportEntries = 100_000

    package init(storePath: String) {
        let given = URL(fileURLWithPath: storePath, relativeTo: DisplayPath.currentDirectory).standardizedFileURL.path
        var stores = [given]
        let resolved = Self.resolve(given)
        if resolved != given { stores.append(resolved) }
        var files: Set<String> = []
        var folders: Set<String> = []
        for store in stores {
            for suffix in [""] + StoreScratchCopy.sideFileSuffixes { files.insert(store + suffix) }
            folders.insert(StoreScratchCopy.supportFolder(of: store))
        }
        var identities = Set(files.compactMap(FileIdentity.init(path:)))
        var walked = 0
        for folder in folders {
            guard let enumerator = FileManager.default.enumerator(atPath: folder) else { continue }
            while walked < Self.maxSupportEntries, let entry = enumerator.nextObject() as? String {
                walked += 1
                if let identity = FileIdentity(path: (folder as NSString).appendingPathComponent(entry)) { identities.insert(identity) }
            }
        }
        self.files = files
        self.supportFolders = folders
        self.identities = identities
    }

    /// Nil when writing `path` cannot touch the store; else why it would (`resolves to the store`, ...).
    package func conflict(withOutput path: String) -> String? {
        let absolute = URL(fileURLWithPath: path, relativeTo: DisplayPath.currentDirectory).standardizedFileURL.path
        let resolved = Self.resolve(absolute)
        for candidate in Set([absolute, resolved]) {
            if files.contains(candidate) {
                return candidate.hasSuffix("-wal") || candidate.hasSuffix("-shm") || candidate.hasSuffix("-journal")
                    ? "resolves to the store's side file '\((candidate as NSString).lastPathComponent)'" : "resolves to the store"
            }
            for folder in supportFolders where candidate == folder || candidate.hasPrefix(folder + "/") {
                return "is inside the store's support folder '\((folder as NSString).lastPathComponent)'"
            }
        }
        if let identity = FileIdentity(path: absolute), identities.contains(identity) {
            return "is a hard link to one of the store's files"
        }
        return nil
    }

    /// Where a write to `path` lands: symbolic links followed (dangling ones included), for a
    /// path that does not exist the resolved parent plus the name.
    static func resolve(_ path: String, depth: Int = 0) -> String {
        if case .success(let canonical) = FileAccess.canonicalPath(path) { return canonical }
        guard depth < 40, path != "/", !path.isEmpty else { return path }
        var info = stat()
        if lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK,
           let target = try? FileManager.default.destinationOfSymbolicLink(atPath: path) {
            let folder = (path as NSString).deletingLastPathComponent
            let next = target.hasPrefix("/") ? target : (folder as NSString).appendingPathComponent(target)
            return resolve((next as NSString).standardizingPath, depth: depth + 1)
        }
        let parent = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        return ((parent == path ? parent : resolve(parent, depth: depth + 1)) as NSString).appendingPathComponent(name)
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChainPlanCore

/// A private copy of a Core Data SQLite store, taken without modifying the original.
///
/// The store file, its `-wal`, `-shm` and `-journal` (when present) and the external
/// binary data folder `.<name>_SUPPORT/` are copied into a fresh temporary directory
/// (mode 0700). Only the copy is ever opened with SQLite: opening the original in WAL
/// mode would create or write its `-shm`.
///
/// While copying, the original is locked like a SQLite reader would lock it, with POSIX
/// advisory read locks (`fcntl(F_SETLK, F_RDLCK)` on read-only descriptors, which never
/// modify a file):
/// - the SHARED byte range of the database file (`0x40000002`, 510 bytes, see SQLite's
///   `os_unix.c`), so a rollback-journal writer cannot take the EXCLUSIVE lock it needs to
///   commit;
/// - in WAL mode, the WAL-index write and checkpoint lock bytes of `-shm` (offsets 120 and
///   121), so no WAL writer can commit and no checkpoint can run during the copy.
/// When another process holds a write lock (RESERVED or PENDING on the database file, an
/// exclusive lock on the SHARED range, or the WAL write or checkpoint lock), the copy waits
/// and retries until `lockTimeout`, then fails with CP300 "is locked by another process".
/// After copying, the originals' size, modification time and inode are compared with their
/// values before the copy; a difference retries (until the timeout) or fails.
///
/// The scratch directory is removed by `remove()` or when the object is released. Every
/// live scratch directory is also registered, so a CLI signal handler can remove them all
/// synchronously with `StoreScratchCopy.removeAllLive()`.
package final class StoreScratchCopy: Sendable {
    /// The absolute path of the original store file.
    package let originalPath: String
    /// The path shown to users in diagnostics.
    package let displayPath: String
    /// The private scratch directory (mode 0700) holding the copy.
    package let directory: URL
    /// The copied store file inside `directory` (same file name as the original).
    package let storeURL: URL
    /// Suffixes of the side files copied with the store, in order: `-wal`, `-shm`, `-journal`.
    package let copiedSideFiles: [String]
    /// Number of files copied from the `.<name>_SUPPORT/` folder (0 when absent).
    package let supportFileCount: Int
    /// Total bytes copied (store, side files and support folder).
    package let bytesCopied: Int
    /// True when the original had a `-wal` file.
    package var hasWAL: Bool { copiedSideFiles.contains("-wal") }

    private let removed = Locked(false)

    private init(
        originalPath: String, displayPath: String, directory: URL, storeURL: URL,
        copiedSideFiles: [String], supportFileCount: Int, bytesCopied: Int
    ) {
        self.originalPath = originalPath
        self.displayPath = displayPath
        self.directory = directory
        self.storeURL = storeURL
        self.copiedSideFiles = copiedSideFiles
        self.supportFileCount = supportFileCount
        self.bytesCopied = bytesCopied
    }

    deinit { remove() }

    /// Removes the scratch directory (idempotent).
    package func remove() {
        let wasRemoved = removed.withLock { removed in
            defer { removed = true }
            return removed
        }
        guard !wasRemoved else { return }
        try? FileManager.default.removeItem(at: directory)
        ScratchRegistry.shared.unregister(directory.path)
    }

    /// Removes every scratch directory still alive in this process, synchronously.
    ///
    /// Meant for the CLI's SIGINT/SIGTERM handling. Call it from a `DispatchSourceSignal`
    /// handler (or any normal thread), not from a raw async-signal handler: it takes a lock
    /// and calls the file manager.
    package static func removeAllLive() {
        ScratchRegistry.shared.removeAll()
    }

    /// The scratch directories currently alive in this process (sorted).
    package static var liveDirectories: [String] { ScratchRegistry.shared.snapshot() }

    /// Copies the store at `path` into a new private scratch directory.
    ///
    /// - Parameters:
    ///   - path: the store file (absolute, or relative to the working directory).
    ///   - displayPath: the path to show in diagnostics (defaults to `path`).
    ///   - lockTimeout: how long to wait for another process's write lock, in seconds
    ///     (clamped to 0…86400; a non-finite value means 0).
    ///   - temporaryDirectory: where to create the scratch directory (defaults to the
    ///     system temporary directory, which honours `TMPDIR`).
    ///   - progress: bytes copied so far over the store's and its side files' sizes, 0…1
    ///     (a retry starts again from 0).
    /// - Throws: `StoreError` (CP300) when the store is missing, not a regular file, empty,
    ///   unreadable, locked beyond the timeout, or changed during the copy.
    package static func make(
        storeAt path: String,
        displayPath: String? = nil,
        lockTimeout: TimeInterval = 5,
        temporaryDirectory: URL? = nil,
        progress: (@Sendable (Double) -> Void)? = nil
    ) throws(StoreError) -> StoreScratchCopy {
        let shown = displayPath ?? path
        let given = URL(fileURLWithPath: path, relativeTo: DisplayPath.currentDirectory).standardizedFileURL.path
        try checkOriginal(given, shown)
        // SQLite names side files after the resolved path (its unix VFS follows symbolic links).
        guard case .success(let absolute) = FileAccess.canonicalPath(given) else {
            throw StoreError.unreadable(shown, "does not exist")
        }

        let base = (temporaryDirectory ?? FileManager.default.temporaryDirectory).path
        let directory = try makeScratchDirectory(in: base, shown)
        ScratchRegistry.shared.register(directory.path)
        let fileName = (absolute as NSString).lastPathComponent
        let storeURL = directory.appendingPathComponent(fileName)

        let timeout = lockTimeout.isFinite ? min(max(lockTimeout, 0), 86_400) : 0
        let deadline = Date().addingTimeInterval(timeout)
        var lastProblem = "is locked by another process"
        while true {
            do {
                let result = try attemptCopy(original: absolute, into: directory, fileName: fileName, shown, progress: progress)
                switch result {
                case .copied(let sideFiles, let supportCount, let bytes):
                    return StoreScratchCopy(
                        originalPath: absolute, displayPath: shown, directory: directory, storeURL: storeURL,
                        copiedSideFiles: sideFiles, supportFileCount: supportCount, bytesCopied: bytes)
                case .busy:
                    lastProblem = "is locked by another process"
                case .changed:
                    lastProblem = "changed while it was being copied"
                }
            } catch {
                try? FileManager.default.removeItem(at: directory)
                ScratchRegistry.shared.unregister(directory.path)
                throw error
            }
            if Date() >= deadline {
                try? FileManager.default.removeItem(at: directory)
                ScratchRegistry.shared.unregister(directory.path)
                let seconds = NumberText.short(timeout)
                throw StoreError.unreadable(shown, "\(lastProblem) (waited \(seconds) s)")
            }
            usleep(25_000)
        }
    }

    // MARK: - Steps

    private enum Attempt {
        case copied(sideFiles: [String], supportCount: Int, bytes: Int)
        case busy
        case changed
    }

    private static func checkOriginal(_ path: String, _ shown: String) throws(StoreError) {
        switch FileAccess.kind(at: path) {
        case .failure(.missing):
            throw StoreError.unreadable(shown, "does not exist")
        case .failure(.symlinkLoop):
            throw StoreError.unreadable(shown, "is a symbolic link loop")
        case .failure(let problem):
            throw StoreError.unreadable(shown, "cannot be read: \(reason(of: problem))")
        case .success(.directory):
            throw StoreError.unreadable(shown, "is a directory, not a SQLite store file")
        case .success(.other(let kind)):
            throw StoreError.unreadable(shown, "is \(kind), not a SQLite store file")
        case .success(.regular(let size)):
            if size == 0 { throw StoreError.unreadable(shown, "is empty (0 bytes), not a SQLite database") }
        }
    }

    private static func reason(of problem: FileProblem) -> String {
        if case .unreadable(_, let reason) = problem { return reason }
        return problem.description
    }

    private static func makeScratchDirectory(in base: String, _ shown: String) throws(StoreError) -> URL {
        var template = Array((base.hasSuffix("/") ? base : base + "/").utf8CString.dropLast())
        template.append(contentsOf: Array("chainplan-store.XXXXXX".utf8CString))
        let made = template.withUnsafeMutableBufferPointer { buffer -> String? in
            guard let pointer = buffer.baseAddress, mkdtemp(pointer) != nil else { return nil }
            return String(cString: pointer)
        }
        guard let made else {
            throw StoreError.unreadable(shown, "cannot be copied: no scratch directory in '\(base)': \(String(cString: strerror(errno)))")
        }
        chmod(made, 0o700)
        return URL(fileURLWithPath: made, isDirectory: true)
    }

    /// One locked copy attempt. The lock descriptors stay open until the copy is verified:
    /// closing any descriptor of a file releases this process's POSIX locks on it.
    private static func attemptCopy(
        original: String, into directory: URL, fileName: String, _ shown: String,
        progress: (@Sendable (Double) -> Void)?
    ) throws(StoreError) -> Attempt {
        try clearDirectory(directory, shown)
        let main = try openRegular(original, shown, required: true)
        guard let main else { throw StoreError.unreadable(shown, "does not exist") }
        defer { close(main.descriptor) }

        // Lock like a reader; refuse while a writer holds or waits for a write lock.
        guard SQLiteLocks.tryReadLock(main.descriptor, start: SQLiteLocks.sharedFirst, length: SQLiteLocks.sharedSize),
              !SQLiteLocks.writeLockHeld(main.descriptor, start: SQLiteLocks.pending, length: 2)
        else { return .busy }
        let shm = try openRegular(original + "-shm", shown, required: false)
        defer { if let shm { close(shm.descriptor) } }
        if let shm {
            guard SQLiteLocks.tryReadLock(shm.descriptor, start: SQLiteLocks.shmWrite, length: 2) else { return .busy }
        }

        let watched = [original, original + "-wal", original + "-journal"]
        let before = watched.map(FileSignature.init(path:))

        // Progress over the sizes of the store and its side files (the support folder is not counted).
        let total = max((watched + [original + "-shm"]).map { FileSignature(path: $0)?.size ?? 0 }.reduce(0, +), 1)
        var done: Int64 = 0
        let advance: (Int) -> Void = { count in
            done += Int64(count)
            progress?(min(Double(done) / Double(total), 1))
        }
        progress?(0)
        var bytes = try copyContents(of: main.descriptor, to: directory.appendingPathComponent(fileName).path, shown, advance)
        var sideFiles: [String] = []
        for suffix in sideFileSuffixes {
            let destination = directory.appendingPathComponent(fileName + suffix).path
            if suffix == "-shm" {
                guard let shm else { continue }
                bytes += try copyContents(of: shm.descriptor, to: destination, shown, advance)
            } else {
                guard let side = try openRegular(original + suffix, shown, required: false) else { continue }
                defer { close(side.descriptor) }
                bytes += try copyContents(of: side.descriptor, to: destination, shown, advance)
            }
            sideFiles.append(suffix)
        }
        let support = try copySupportFolder(original: original, into: directory, shown)
        bytes += support.bytes

        let after = watched.map(FileSignature.init(path:))
        guard before == after else { return .changed }
        return .copied(sideFiles: sideFiles, supportCount: support.files, bytes: bytes)
    }

    private static func clearDirectory(_ directory: URL, _ shown: String) throws(StoreError) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        for entry in entries {
            do {
                try manager.removeItem(at: directory.appendingPathComponent(entry))
            } catch {
                throw StoreError.unreadable(shown, "cannot be copied: scratch directory not writable")
            }
        }
    }

    private struct OpenedFile {
        var descriptor: Int32
    }

    /// Opens a regular file read-only (never blocking on a FIFO); nil when absent and not required.
    private static func openRegular(_ path: String, _ shown: String, required: Bool) throws(StoreError) -> OpenedFile? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT && !required { return nil }
            if code == ENOENT { throw StoreError.unreadable(shown, "does not exist") }
            let name = (path as NSString).lastPathComponent
            throw StoreError.unreadable(shown, "cannot be read: '\(name)': \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            let name = (path as NSString).lastPathComponent
            throw StoreError.unreadable(shown, "cannot be read: '\(name)' is not a regular file")
        }
        return OpenedFile(descriptor: descriptor)
    }

    /// Copies a whole file from an open descriptor (with `pread`, so the offset of a locked
    /// descriptor is irrelevant) into a new file created with mode 0600.
    private static func copyContents(
        of source: Int32, to destination: String, _ shown: String, _ advance: (Int) -> Void = { _ in }
    ) throws(StoreError) -> Int {
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw StoreError.unreadable(shown, "cannot be copied: \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var offset: off_t = 0
        while true {
            let count = pread(source, buffer, chunk, offset)
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError.unreadable(shown, "cannot be read: \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            var written = 0
            while written < count {
                let result = write(output, buffer + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.unreadable(shown, "cannot be copied: \(String(cString: strerror(errno)))")
                }
                written += result
            }
            offset += off_t(count)
            advance(count)
        }
        return Int(offset)
    }

    /// Limits for the external binary data folder.
    /// The files SQLite keeps beside a store: write-ahead log, shared memory, rollback journal.
    static let sideFileSuffixes = ["-wal", "-shm", "-journal"]

    /// Core Data's external binary data folder for the store at `path`: `.<name>_SUPPORT`, the
    /// name without its extension, beside the store.
    static func supportFolder(of path: String) -> String {
        let baseName = (((path as NSString).lastPathComponent) as NSString).deletingPathExtension
        return ((path as NSString).deletingLastPathComponent as NSString).appendingPathComponent("." + baseName + "_SUPPORT")
    }

    private static let maxSupportEntries = 1_000_000
    private static let maxSupportDepth = 32

    /// Copies `.<name>_SUPPORT/` (name without extension): directories and regular files only;
    /// symbolic links and special files are skipped.
    private static func copySupportFolder(original: String, into directory: URL, _ shown: String) throws(StoreError) -> (files: Int, bytes: Int) {
        let source = supportFolder(of: original)
        let supportName = (source as NSString).lastPathComponent
        var info = stat()
        guard lstat(source, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { return (0, 0) }

        var files = 0
        var bytes = 0
        var entries = 0
        var stack: [(source: String, destination: String, depth: Int)] = [(source, directory.appendingPathComponent(supportName).path, 0)]
        while let (from, to, depth) = stack.popLast() {
            guard mkdir(to, 0o700) == 0 else {
                throw StoreError.unreadable(shown, "cannot be copied: \(String(cString: strerror(errno)))")
            }
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: from) else {
                throw StoreError.unreadable(shown, "cannot be read: folder '\(supportName)' is not readable")
            }
            for name in names.sorted() {
                entries += 1
                if entries > maxSupportEntries {
                    throw StoreError.unreadable(shown, "cannot be copied: folder '\(supportName)' has more than \(maxSupportEntries) entries")
                }
                let childSource = (from as NSString).appendingPathComponent(name)
                let childDestination = (to as NSString).appendingPathComponent(name)
                var child = stat()
                guard lstat(childSource, &child) == 0 else { continue }
                switch child.st_mode & S_IFMT {
                case S_IFDIR:
                    if depth + 1 > maxSupportDepth {
                        throw StoreError.unreadable(shown, "cannot be copied: folder '\(supportName)' is nested deeper than \(maxSupportDepth) levels")
                    }
                    stack.append((childSource, childDestination, depth + 1))
                case S_IFREG:
                    guard let file = try openRegular(childSource, shown, required: false) else { continue }
                    defer { close(file.descriptor) }
                    bytes += try copyContents(of: file.descriptor, to: childDestination, shown)
                    files += 1
                default:
                    continue
                }
            }
        }
        return (files, bytes)
    }
}

/// What identifies a file's content version without reading it: size, modification time and
/// inode; nil for a file that does not exist (a missing file's signature equals only another
/// missing file's).
struct FileSignature: Equatable {
    var size: Int64
    var modifiedSeconds: Int
    var modifiedNanoseconds: Int
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.size = Int64(info.st_size)
        #if canImport(Darwin)
        self.modifiedSeconds = Int(info.st_mtimespec.tv_sec)
        self.modifiedNanoseconds = Int(info.st_mtimespec.tv_nsec)
        #else
        self.modifiedSeconds = Int(info.st_mtim.tv_sec)
        self.modifiedNanoseconds = Int(info.st_mtim.tv_nsec)
        #endif
        self.inode = UInt64(info.st_ino)
    }
}

/// SQLite's POSIX lock layout (`os_unix.c`, `wal.c`) and the two lock primitives used here.
enum SQLiteLocks {
    /// PENDING_BYTE: 0x40000000 (1 GiB), RESERVED_BYTE = PENDING + 1, SHARED_FIRST = PENDING + 2.
    static let pending: off_t = 0x4000_0000
    static let reserved: off_t = pending + 1
    static let sharedFirst: off_t = pending + 2
    static let sharedSize: off_t = 510
    /// WALINDEX_LOCK_OFFSET (120) + WAL_WRITE_LOCK (0); the checkpoint lock is the next byte.
    static let shmWrite: off_t = 120

    /// Takes a non-blocking read lock; false when another process holds a conflicting write lock.
    static func tryReadLock(_ descriptor: Int32, start: off_t, length: off_t) -> Bool {
        var lock = readLock(start: start, length: length)
        return fcntl(descriptor, F_SETLK, &lock) == 0
    }

    /// True when another process holds a write lock somewhere in the range.
    static func writeLockHeld(_ descriptor: Int32, start: off_t, length: off_t) -> Bool {
        var lock = readLock(start: start, length: length)
        guard fcntl(descriptor, F_GETLK, &lock) == 0 else { return false }
        return lock.l_type != Int16(F_UNLCK)
    }

    /// A read lock on the byte range, to take (`F_SETLK`) or to test (`F_GETLK`).
    private static func readLock(start: off_t, length: off_t) -> flock {
        var lock = flock()
        lock.l_type = Int16(F_RDLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = start
        lock.l_len = length
        return lock
    }
}

/// The scratch directories alive in this process, for removal on a signal.
final class ScratchRegistry: Sendable {
    static let shared = ScratchRegistry()
    private let live = Locked(Set<String>())

    func register(_ path: String) {
        live.withLock { _ = $0.insert(path) }
    }

    func unregister(_ path: String) {
        live.withLock { _ = $0.remove(path) }
    }

    func snapshot() -> [String] {
        live.withLock { $0.sorted() }
    }

    func removeAll() {
        let paths = live.withLock { live in
            defer { live.removeAll() }
            return live
        }
        for path in paths.sorted() { try? FileManager.default.removeItem(atPath: path) }
    }
}

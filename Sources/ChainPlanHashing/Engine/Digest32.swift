import Crypto
import Foundation

/// A SHA-256 result held inline (four words in memory order, no heap storage), so hashing a
/// model allocates no `Data` or array per property: the engine's inner loop works on these and
/// converts to `Data` only for what `ModelHashes` keeps.
struct Digest32: Hashable, Sendable {
    var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// SHA-256 of `bytes`.
    init(sha256 bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { buffer in
            var hasher = SHA256()
            hasher.update(bufferPointer: buffer)
            return hasher.finalize().withUnsafeBytes { raw in
                Digest32(w0: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                         w1: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
                         w2: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self),
                         w3: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            }
        }
    }

    init(w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64) {
        self.w0 = w0
        self.w1 = w1
        self.w2 = w2
        self.w3 = w3
    }

    /// The 32 raw bytes.
    var data: Data { withUnsafeBytes(of: self) { Data($0) } }
}

extension Array where Element == UInt8 {
    /// Appends the digest's 32 raw bytes.
    mutating func append(_ digest: Digest32) {
        Swift.withUnsafeBytes(of: digest) { append(contentsOf: $0) }
    }
}

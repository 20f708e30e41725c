import Foundation

/// Reads property lists from users' files: a store's `Z_PLIST`, a compiled model's
/// `VersionInfo.plist`, the keyed archives inside mapping models.
///
/// Foundation's `PropertyListSerialization` does the parsing, after two refusals:
/// - XML that declares entities (it would expand them);
/// - a binary property list that contains a set. swift-corelibs-foundation dereferences a null
///   pointer while bridging any `NSSet` a binary plist holds (found by `make fuzz`, reproduced
///   with a 12-byte plist whose top object is a one-element set); no Core Data file uses sets,
///   so the object table is walked first and such a plist is refused.
package enum PropertyListReader {
    package struct Problem: Error, Sendable, Hashable {
        package var message: String
    }

    package static func read(_ data: Data) -> Result<Any, Problem> {
        if let refusal = refusal(data) { return .failure(refusal) }
        do {
            return .success(try PropertyListSerialization.propertyList(from: data, options: [], format: nil))
        } catch {
            return .failure(Problem(message: "is not a readable property list"))
        }
    }

    /// Why `data` must not reach Foundation's parser, or nil.
    static func refusal(_ data: Data) -> Problem? {
        if data.starts(with: "bplist".utf8) { return binaryRefusal(data) }
        let text = String(decoding: data.prefix(1 << 20), as: UTF8.self)
        if text.contains("<!ENTITY") {
            return Problem(message: "declares XML entities, which chainplan refuses to expand")
        }
        return nil
    }

    /// Checks a binary property list's trailer and offset table, and the marker of every object.
    static func binaryRefusal(_ data: Data) -> Problem? {
        let bytes = [UInt8](data)
        let malformed = Problem(message: "is a malformed binary property list")
        // "bplist00", at least one object, the offset table, and the 32-byte trailer.
        guard bytes.count >= 8 + 1 + 1 + 32 else { return malformed }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        func integer(at index: Int, size: Int) -> UInt64 {
            var value: UInt64 = 0
            for byte in bytes[index..<index + size] { value = value << 8 | UInt64(byte) }
            return value
        }
        let objectCount = integer(at: trailer + 8, size: 8)
        let tableStart = integer(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              objectCount >= 1, objectCount <= UInt64(bytes.count),
              tableStart >= 9, tableStart <= UInt64(trailer),
              objectCount * UInt64(offsetSize) <= UInt64(trailer) - tableStart
        else { return malformed }
        for index in 0..<Int(objectCount) {
            let offset = integer(at: Int(tableStart) + index * offsetSize, size: offsetSize)
            guard offset >= 8, offset < tableStart else { return malformed }
            if bytes[Int(offset)] >> 4 == 0xC {
                return Problem(message: "is a binary property list that contains a set, which no Core Data file does")
            }
        }
        return nil
    }
}

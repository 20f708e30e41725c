import ChainPlanCore
@_spi(Reflection) import Swift
import Foundation

/// Why an embedded archive could not be decoded (becomes a CP120 message).
package struct ArchiveError: Error, Sendable, Hashable {
    package let message: String
    package init(_ message: String) { self.message = message }
}

/// A plain value of an `NSKeyedArchiver` property list, with `CF$UID` references kept as
/// `.uid` (never followed during conversion, so reference cycles cannot recurse).
enum ArchiveValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case data(Data)
    case uid(Int)
    case array([ArchiveValue])
    case dictionary([String: ArchiveValue])
    /// A plist type the walk never needs (dates, non-string keys, …).
    case unsupported
}

/// Read-only access to an `NSKeyedArchiver` binary plist without instantiating classes.
///
/// `NSKeyedUnarchiver` cannot build Xcode's private `XDPM…` classes (and must not be
/// trusted with hostile input), so the archive is parsed into plain values (by
/// `PropertyListSerialization`) and walked by hand. Every dereference spends from a budget
/// proportional to the archive size, so no input can make a walk loop forever, and all
/// references are range-checked.
final class KeyedArchive {
    /// The `$objects` table, index 0 being `$null`.
    let objects: [ArchiveValue]
    /// Index of `$top.root`.
    let rootIndex: Int
    private var budget: Int

    /// Largest number of `$objects` accepted (real snapshots hold at most a few 100 000).
    static let maxObjects = 4_000_000
    /// Deepest nesting of plist containers accepted while converting.
    static let maxDepth = 32

    /// `keys`: the keys of archived objects to keep (others read as absent).
    init(data: Data, keys: Set<String> = PlistConverter.objectKeys) throws(ArchiveError) {
        guard data.count >= 8, data.prefix(6).elementsEqual("bplist".utf8) else {
            throw ArchiveError("it is not a binary property list")
        }
        (objects, rootIndex) = try Self.readThroughFoundation(data, keys: keys)
        // Each object is visited a small, fixed number of times by the snapshot walk.
        self.budget = 64 * objects.count + 10_000
    }

    /// `$objects` and the root index from `PropertyListSerialization`'s output, converted by
    /// `PlistConverter`.
    static func readThroughFoundation(_ data: Data, keys: Set<String>) throws(ArchiveError) -> (objects: [ArchiveValue], root: Int) {
        let plist: Any
        switch PropertyListReader.read(data) {
        case .success(let read): plist = read
        case .failure(let refusal): throw ArchiveError("it \(refusal.message)")
        }
        guard let top = plist as? [String: Any] else { throw ArchiveError("its property list is not a keyed archive") }
        guard let archiver = top["$archiver"] as? String, archiver == "NSKeyedArchiver" else {
            throw ArchiveError("it is not an NSKeyedArchiver archive")
        }
        guard let rawObjects = top["$objects"] as? [Any], !rawObjects.isEmpty else {
            throw ArchiveError("it has no '$objects' table")
        }
        guard rawObjects.count <= Self.maxObjects else {
            throw ArchiveError("it holds \(rawObjects.count) objects, over the limit of \(Self.maxObjects)")
        }
        guard let rawTop = top["$top"] as? [String: Any], let rawRoot = rawTop["root"] else {
            throw ArchiveError("it has no '$top.root' object")
        }
        var converter = PlistConverter(keys: keys, budget: PlistConverter.conversionBudget(bytes: data.count))
        guard case .uid(let root) = converter.convert(rawRoot, depth: 0) else {
            throw ArchiveError("its '$top.root' is not an object reference")
        }
        guard root > 0, root < rawObjects.count else {
            throw ArchiveError("its root reference #\(root) is out of range")
        }
        var objects: [ArchiveValue] = []
        objects.reserveCapacity(rawObjects.count)
        for raw in rawObjects {
            objects.append(converter.convertObject(raw))
            if converter.exhausted { break }
        }
        guard !converter.exhausted else {
            throw ArchiveError("its containers share children so often that reading it would multiply them past \(PlistConverter.conversionBudget(bytes: data.count)) values")
        }
        return (objects, root)
    }

    /// The value itself, or the object a `.uid` refers to (`$null` and reference 0 give `.null`).
    func resolve(_ value: ArchiveValue) throws(ArchiveError) -> ArchiveValue {
        guard case .uid(let index) = value else { return value }
        budget -= 1
        guard budget >= 0 else { throw ArchiveError("its object graph is too large or cyclic") }
        guard index >= 0, index < objects.count else {
            throw ArchiveError("it refers to object #\(index) of \(objects.count)")
        }
        if index == 0 { return .null }
        let object = objects[index]
        if case .uid = object { throw ArchiveError("object #\(index) is a bare reference") }
        if case .string("$null") = object { return .null }
        return object
    }

    /// The keyed object (a dictionary with `$class`) `value` refers to; throws otherwise.
    func object(_ value: ArchiveValue, _ what: String) throws(ArchiveError) -> [String: ArchiveValue] {
        guard case .dictionary(let dictionary) = try resolve(value) else {
            throw ArchiveError("\(what) is not an archived object")
        }
        return dictionary
    }

    /// Like `object`, but nil for `$null`.
    func optionalObject(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> [String: ArchiveValue]? {
        guard let value else { return nil }
        switch try resolve(value) {
        case .null: return nil
        case .dictionary(let dictionary): return dictionary
        default: throw ArchiveError("\(what) is not an archived object")
        }
    }

    /// `$classname` and `$classes` of a keyed object.
    func classNames(of object: [String: ArchiveValue]) throws(ArchiveError) -> [String] {
        guard let reference = object["$class"],
              case .dictionary(let info) = try resolve(reference),
              case .string(let name)? = info["$classname"]
        else { return [] }
        var names = [name]
        if case .array(let chain)? = info["$classes"] {
            for case .string(let parent) in chain.prefix(64) where parent != name { names.append(parent) }
        }
        return names
    }

    /// True when the object's class (or one of its superclasses) is `name`.
    func isInstance(_ object: [String: ArchiveValue], of name: String) throws(ArchiveError) -> Bool {
        try classNames(of: object).contains(name)
    }

    /// An optional string (`$null` → nil); throws on another type.
    func string(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> String? {
        guard let value else { return nil }
        switch try resolve(value) {
        case .null: return nil
        case .string(let text): return text
        default: throw ArchiveError("\(what) is not a string")
        }
    }

    /// An optional Boolean (`$null` → nil; 0 and 1 accepted); throws on another type.
    func bool(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> Bool? {
        guard let value else { return nil }
        switch try resolve(value) {
        case .null: return nil
        case .bool(let flag): return flag
        case .int(0): return false
        case .int(1): return true
        default: throw ArchiveError("\(what) is not a Boolean")
        }
    }

    /// An optional integer (`$null` → nil); throws on another type.
    func int(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> Int? {
        guard let value else { return nil }
        switch try resolve(value) {
        case .null: return nil
        case .int(let number): return number
        default: throw ArchiveError("\(what) is not an integer")
        }
    }

    /// The entries of an archived `NSDictionary` (`NS.keys`/`NS.objects`), in archive order;
    /// `$null` gives no entries. Keys must be strings.
    func dictionaryEntries(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> [(key: String, value: ArchiveValue)] {
        guard let value, let dictionary = try optionalObject(value, what) else { return [] }
        guard case .array(let keys)? = dictionary["NS.keys"], case .array(let values)? = dictionary["NS.objects"] else {
            throw ArchiveError("\(what) is not an archived dictionary")
        }
        guard keys.count == values.count else { throw ArchiveError("\(what) has \(keys.count) keys but \(values.count) values") }
        var entries: [(key: String, value: ArchiveValue)] = []
        entries.reserveCapacity(keys.count)
        for (key, element) in zip(keys, values) {
            guard let name = try string(key, "a key of \(what)") else { throw ArchiveError("\(what) has a null key") }
            entries.append((name, element))
        }
        return entries
    }

    /// The elements of an archived `NSArray`/`NSSet` (`NS.objects`); `$null` gives none.
    func arrayElements(_ value: ArchiveValue?, _ what: String) throws(ArchiveError) -> [ArchiveValue] {
        guard let value, let array = try optionalObject(value, what) else { return [] }
        guard case .array(let elements)? = array["NS.objects"] else { throw ArchiveError("\(what) is not an archived array") }
        return elements
    }
}

/// Converts `PropertyListSerialization` output into `ArchiveValue`s.
///
/// `CF$UID` values have no public Swift type: swift-corelibs-foundation produces its
/// internal `_NSKeyedArchiverUID` (whose stored `value` is read by reflection), Darwin a
/// `CFKeyedArchiverUID`. Once the first UID has been recognised, the others are read at the
/// stored property's offset (found once per archive with the runtime's field list), not
/// through `Mirror`, which was a fifth of the decoding time. Anything unrecognised is re-serialised as an XML plist, where a
/// UID is written as `<dict><key>CF$UID</key><integer>n</integer></dict>`, and read back.
struct PlistConverter {
    private var uidType: ObjectIdentifier?
    /// The byte offset of the `UInt32` `value` in an instance of `uidType`, when it has one.
    private var uidOffset: Int?
    /// The keys kept from each `$objects` dictionary.
    var keys: Set<String>
    /// Values still to convert. A plist's containers can share children, so converting the
    /// shared graph into a tree can multiply it (each level by its width): the count of values
    /// converted is capped in proportion to the plist's size (`conversionBudget`), and running
    /// out leaves `exhausted` set.
    private var remaining: Int
    private(set) var exhausted = false

    init(keys: Set<String> = PlistConverter.objectKeys, budget: Int = .max) {
        self.keys = keys
        self.remaining = budget
    }

    /// Values a plist of `bytes` bytes may convert into: a tree of values needs a reference (at
    /// least one byte) per value; more than twice that is a shared graph being multiplied out.
    static func conversionBudget(bytes: Int) -> Int { 2 * bytes + 10_000 }

    /// The only keys the snapshot walk reads from archived objects. Converting just these
    /// (an `XDUMLPropertyImp` has 15 keys, the walk needs 2) more than halves decoding time;
    /// any other key of an `$objects` entry reads as absent.
    static let objectKeys: Set<String> = [
        "$class", "$classes", "$classname", "NS.keys", "NS.objects",
        "XDBucketForClassesstorage", "XDBucketForGeneralizationsstorage", "XDBucketForOwnedAttributesstorage",
        "XDBucketForStereotypesstorage", "_default", "_general", "_isAbstract", "_modelVersionIdentifier", "_name",
        "_owner", "_xd_rootPackage",
    ]

    /// Converts one entry of `$objects`, keeping only `objectKeys` of a dictionary.
    mutating func convertObject(_ value: Any) -> ArchiveValue {
        guard let dictionary = value as? [AnyHashable: Any] else { return convert(value, depth: 0) }
        var result: [String: ArchiveValue] = [:]
        for (key, element) in dictionary {
            guard let name = key.base as? String else { return .unsupported }
            if keys.contains(name) { result[name] = convert(element, depth: 1) }
        }
        return .dictionary(result)
    }

    mutating func convert(_ value: Any, depth: Int) -> ArchiveValue {
        guard depth <= KeyedArchive.maxDepth else { return .unsupported }
        remaining -= 1
        guard remaining >= 0 else {
            exhausted = true
            return .unsupported
        }
        // UIDs are most of the values: recognise their type first, once known.
        if let uidType, ObjectIdentifier(type(of: value) as Any.Type) == uidType, let uid = knownUID(value) {
            return .uid(uid)
        }
        if let text = value as? String { return .string(text) }
        if type(of: value) == Bool.self, let flag = value as? Bool { return .bool(flag) }
        if type(of: value) == Int.self, let number = value as? Int { return .int(number) }
        if let data = value as? Data { return .data(data) }
        if let array = value as? [Any] {
            return .array(array.map { convert($0, depth: depth + 1) })
        }
        if let dictionary = value as? [AnyHashable: Any] {
            var result: [String: ArchiveValue] = [:]
            for (key, element) in dictionary {
                guard let name = key.base as? String else { return .unsupported }
                result[name] = convert(element, depth: depth + 1)
            }
            return .dictionary(result)
        }
        if value is Date { return .unsupported }
        if let number = value as? NSNumber { return Self.number(number) }
        if let uid = uidValue(value) { return .uid(uid) }
        return .unsupported
    }

    private static func number(_ number: NSNumber) -> ArchiveValue {
        let kind = String(cString: number.objCType)
        switch kind {
        case "c", "B":
            // CFBoolean, or a char-sized integer: only 0/1 are Booleans in a keyed archive.
            let value = number.int64Value
            return value == 0 || value == 1 ? .bool(value == 1) : .int(Int(value))
        case "f", "d":
            return .double(number.doubleValue)
        case "Q", "L", "I", "S":
            let value = number.uint64Value
            return value <= UInt64(Int.max) ? .int(Int(value)) : .double(number.doubleValue)
        default:
            return .int(Int(number.int64Value))
        }
    }

    private mutating func uidValue(_ value: Any) -> Int? {
        if String(describing: type(of: value)).contains("KeyedArchiverUID"), let uid = mirroredUID(value) {
            uidType = ObjectIdentifier(type(of: value) as Any.Type)
            uidOffset = Self.storedValueOffset(in: type(of: value))
            // Kept only if it reads this first UID exactly as reflection did.
            if let uidOffset, Self.load(value, at: uidOffset) != uid { self.uidOffset = nil }
            return uid
        }
        return Self.uidByReserialising(value)
    }

    /// The value of a UID of `uidType`: read in place when its offset is known.
    private func knownUID(_ value: Any) -> Int? {
        guard let uidOffset else { return mirroredUID(value) }
        return Self.load(value, at: uidOffset)
    }

    /// The `UInt32` at `offset` in a class instance: call only with an instance of `uidType`
    /// and the offset of its stored `value: UInt32`.
    private static func load(_ value: Any, at offset: Int) -> Int {
        let object = value as AnyObject
        return Int(withExtendedLifetime(object) {
            Unmanaged.passUnretained(object).toOpaque().load(fromByteOffset: offset, as: UInt32.self)
        })
    }

    /// The offset of the stored `value: UInt32` in instances of a class, from the runtime's
    /// field list (nil for other types or layouts: those UIDs are read by reflection).
    private static func storedValueOffset(in type: Any.Type) -> Int? {
        guard type is AnyObject.Type else { return nil }
        var found: Int?
        // 1 << 0 is the runtime's `classType` option (its `static var` is not readable from
        // Swift 6 code); a wrong flag or layout fails the check against reflection above.
        _ = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 0)) { name, offset, fieldType, _ in
            guard String(cString: name) == "value" else { return true }
            if fieldType == UInt32.self, offset >= 0, offset % MemoryLayout<UInt32>.alignment == 0 { found = offset }
            return false
        }
        return found
    }

    /// The stored `value` of swift-corelibs-foundation's `_NSKeyedArchiverUID`.
    private func mirroredUID(_ value: Any) -> Int? {
        for child in Mirror(reflecting: value).children where child.label == "value" {
            switch child.value {
            case let value as UInt32: return Int(value)
            case let value as UInt64: return value <= UInt64(Int.max) ? Int(value) : nil
            case let value as Int: return value
            default: return nil
            }
        }
        return nil
    }

    private static func uidByReserialising(_ value: Any) -> Int? {
        guard let data = try? PropertyListSerialization.data(fromPropertyList: [value], format: .xml, options: 0),
              let text = String(data: data, encoding: .utf8),
              let keyRange = text.range(of: "<key>CF$UID</key>"),
              let open = text.range(of: "<integer>", range: keyRange.upperBound..<text.endIndex),
              let close = text.range(of: "</integer>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return Int(text[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces))
    }
}

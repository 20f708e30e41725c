import Foundation

/// Reads the `$objects` table of a well-formed binary `NSKeyedArchiver` plist straight from its
/// bytes, into the values `PlistConverter` would make of Foundation's output, without
/// `PropertyListSerialization` and its bridging of every dictionary and array into Swift (most
/// of the time of reading a mapping model).
///
/// It takes only the plain shape every real archive has, and gives nil for anything else, which
/// `KeyedArchive` then reads through Foundation as before (so every refusal, message and limit
/// stays Foundation's and `PlistConverter`'s). Nil, among others, for: an object outside the
/// object area or running past it, a marker other than Boolean, 1/2/4/8-byte integer, 4/8-byte
/// real, date, data, ASCII or UTF-16 string, UID, array or dictionary; an ASCII string with a
/// byte above 127 or a UTF-16 string with a lone surrogate; a dictionary key that is not a
/// string, or given twice; a container that contains itself; nesting deeper than
/// `KeyedArchive.maxDepth`; and an archive without `$archiver` = `NSKeyedArchiver`, `$objects`
/// or `$top.root`. Every object is checked before any is converted, whether it is used or not.
/// Work is linear in the size of the plist: each object is checked once, and nesting is walked
/// with an explicit stack.
enum BinaryArchiveReader {
    /// The converted `$objects` and the index of `$top.root`, or nil.
    static func read(_ data: Data, keys: Set<String>) -> (objects: [ArchiveValue], root: Int)? {
        data.withUnsafeBytes { buffer -> (objects: [ArchiveValue], root: Int)? in
            guard let plist = Plist(buffer.bindMemory(to: UInt8.self)) else { return nil }
            return plist.archive(keys: keys)
        }
    }

    /// One checked object.
    private enum Object {
        case bool(Bool)
        case int(Int)
        case double(Double)
        case date
        case data(Range<Int>)
        case string(String)
        case uid(Int)
        case array([Int])
        case dictionary(keys: [Int], values: [Int])
    }

    private struct Plist {
        let bytes: UnsafeBufferPointer<UInt8>
        var objects: [Object] = []
        var top = 0

        init?(_ bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            let count = bytes.count
            guard count >= 8 + 1 + 1 + 32, bytes[0] == 0x62, bytes[6] == 0x30, bytes[7] == 0x30 else { return nil }
            let trailer = count - 32
            let offsetSize = Int(bytes[trailer + 6])
            let referenceSize = Int(bytes[trailer + 7])
            guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
                  let objectCount = Self.integer(bytes, at: trailer + 8, size: 8),
                  let topIndex = Self.integer(bytes, at: trailer + 16, size: 8),
                  let tableStart = Self.integer(bytes, at: trailer + 24, size: 8),
                  objectCount >= 1, objectCount <= count, topIndex < objectCount,
                  tableStart >= 9, tableStart <= trailer, objectCount <= (trailer - tableStart) / offsetSize,
                  // Sizes too small to address every object or offset (Foundation refuses those).
                  referenceSize == 8 || objectCount < 1 << (8 * referenceSize),
                  offsetSize == 8 || tableStart < 1 << (8 * offsetSize)
            else { return nil }
            top = topIndex
            objects.reserveCapacity(objectCount)
            // Objects in table order, each after the end of the one before (as every writer lays
            // them out): no byte is read as part of two objects, so the objects' references
            // together fit in the file, whatever the offset table says.
            var previousEnd = 8
            for index in 0..<objectCount {
                guard let offset = Self.integer(bytes, at: tableStart + index * offsetSize, size: offsetSize), offset >= previousEnd, offset < tableStart,
                      let object = Self.object(bytes, at: offset, end: tableStart, referenceSize: referenceSize, count: objectCount, endOfObject: &previousEnd)
                else { return nil }
                objects.append(object)
            }
            guard Self.isShallowAndAcyclic(objects), Self.keysAreStrings(objects) else { return nil }
        }

        /// A big-endian unsigned integer of `size` bytes (1…8) that fits in `Int`.
        static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, size: Int) -> Int? {
            guard index >= 0, size >= 1, size <= 8, index <= bytes.count - size else { return nil }
            var value: UInt64 = 0
            for offset in 0..<size { value = value << 8 | UInt64(bytes[index + offset]) }
            return value <= UInt64(Int.max) ? Int(value) : nil
        }

        /// The object at `offset`, its extent checked against `end` and its references against
        /// `count`; `endOfObject` is set to the index after its last byte.
        static func object(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int, referenceSize: Int, count: Int,
                           endOfObject: inout Int) -> Object? {
            var start = offset + 1
            guard let object = body(bytes, at: offset, end: end, referenceSize: referenceSize, count: count, start: &start) else { return nil }
            endOfObject = start
            return object
        }

        /// `object`'s reading; `start` begins after the marker and ends after the object.
        private static func body(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, end: Int, referenceSize: Int, count: Int,
                                 start: inout Int) -> Object? {
            let marker = bytes[offset]
            let low = Int(marker & 0x0F)
            /// The length in the low nibble, or in the integer object that follows.
            func length() -> Int? {
                guard low == 0x0F else { return low }
                guard start < end, bytes[start] >> 4 == 0x1 else { return nil }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard size <= 8, start + 1 + size <= end, let value = integer(bytes, at: start + 1, size: size) else { return nil }
                start += 1 + size
                return value
            }
            func fits(_ size: Int) -> Bool { size >= 0 && size <= end - start }
            func references(_ number: Int) -> [Int]? {
                guard number <= (end - start) / referenceSize else { return nil }
                var result: [Int] = []
                result.reserveCapacity(number)
                for index in 0..<number {
                    guard let reference = integer(bytes, at: start + index * referenceSize, size: referenceSize), reference < count else { return nil }
                    result.append(reference)
                }
                start += number * referenceSize
                return result
            }
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return .bool(false)
                case 0x09: return .bool(true)
                default: return nil
                }
            case 0x1:
                guard low <= 3 else { return nil }
                let size = 1 << low
                guard fits(size) else { return nil }
                var value: UInt64 = 0
                for index in 0..<size { value = value << 8 | UInt64(bytes[start + index]) }
                // 8 bytes are signed; fewer are unsigned.
                start += size
                return .int(size == 8 ? Int(Int64(bitPattern: value)) : Int(value))
            case 0x2:
                guard low == 2 || low == 3 else { return nil }
                let size = 1 << low
                guard fits(size) else { return nil }
                var bits: UInt64 = 0
                for index in 0..<size { bits = bits << 8 | UInt64(bytes[start + index]) }
                start += size
                return .double(size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
            case 0x3:
                guard marker == 0x33, fits(8) else { return nil }
                start += 8
                return .date
            case 0x4:
                guard let size = length(), fits(size) else { return nil }
                defer { start += size }
                return .data(start..<(start + size))
            case 0x5:
                guard let size = length(), fits(size) else { return nil }
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<(start + size)])
                guard !slice.contains(where: { $0 > 0x7F }) else { return nil }
                start += size
                return .string(String(decoding: slice, as: UTF8.self))
            case 0x6:
                guard let units = length(), units <= Int.max / 2, fits(units * 2) else { return nil }
                var code: [UInt16] = []
                code.reserveCapacity(units)
                for index in 0..<units { code.append(UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1])) }
                start += units * 2
                var text = ""
                var decoder = UTF16()
                var iterator = code.makeIterator()
                while true {
                    switch decoder.decode(&iterator) {
                    case .scalarValue(let scalar): text.unicodeScalars.append(scalar)
                    case .emptyInput: return .string(text)
                    case .error: return nil
                    }
                }
            case 0x8:
                let size = low + 1
                guard size <= 4, fits(size), let value = integer(bytes, at: start, size: size) else { return nil }
                start += size
                return .uid(value)
            case 0xA:
                guard let number = length(), let elements = references(number) else { return nil }
                return .array(elements)
            case 0xD:
                guard let number = length(), number <= Int.max / 2, let keys = references(number), let values = references(number) else { return nil }
                return .dictionary(keys: keys, values: values)
            default:
                return nil
            }
        }

        /// True when no container contains itself and no chain of containers from any object is
        /// deeper than `KeyedArchive.maxDepth` (depth-first with an explicit stack; each
        /// container's height is found once).
        static func isShallowAndAcyclic(_ objects: [Object]) -> Bool {
            // 0: not visited, 1: on the path, 2: done (height known).
            var state = [UInt8](repeating: 0, count: objects.count)
            var height = [Int](repeating: 0, count: objects.count)
            func children(_ index: Int) -> [Int] {
                switch objects[index] {
                case .array(let elements): elements
                case .dictionary(let keys, let values): keys + values
                default: []
                }
            }
            for root in objects.indices where state[root] == 0 {
                var stack: [(index: Int, children: [Int], next: Int)] = [(root, children(root), 0)]
                state[root] = 1
                while let last = stack.last {
                    if last.next < last.children.count {
                        let child = last.children[last.next]
                        stack[stack.count - 1].next += 1
                        switch state[child] {
                        case 1: return false
                        case 0:
                            state[child] = 1
                            stack.append((child, children(child), 0))
                        default:
                            break
                        }
                    } else {
                        stack.removeLast()
                        let own = last.children.isEmpty ? 0 : 1 + (last.children.map { height[$0] }.max() ?? 0)
                        guard own <= KeyedArchive.maxDepth else { return false }
                        height[last.index] = own
                        state[last.index] = 2
                    }
                }
            }
            return true
        }

        /// True when every dictionary key is a string.
        static func keysAreStrings(_ objects: [Object]) -> Bool {
            objects.allSatisfy { object in
                guard case .dictionary(let keys, _) = object else { return true }
                return keys.allSatisfy { key in
                    if case .string = objects[key] { return true }
                    return false
                }
            }
        }

        func string(_ index: Int) -> String? {
            if case .string(let text) = objects[index] { return text }
            return nil
        }

        /// A dictionary's entries by string key; nil when a key is not a string or repeats.
        func entries(_ index: Int) -> [String: Int]? {
            guard case .dictionary(let keys, let values) = objects[index] else { return nil }
            var result: [String: Int] = [:]
            result.reserveCapacity(keys.count)
            for (key, value) in zip(keys, values) {
                guard let name = string(key), result.updateValue(value, forKey: name) == nil else { return nil }
            }
            return result
        }

        func archive(keys: Set<String>) -> (objects: [ArchiveValue], root: Int)? {
            guard let top = entries(self.top), let archiver = top["$archiver"], string(archiver) == "NSKeyedArchiver",
                  let table = top["$objects"], case .array(let elements) = objects[table], !elements.isEmpty,
                  elements.count <= KeyedArchive.maxObjects,
                  let rootTable = top["$top"], let rootReference = entries(rootTable)?["root"],
                  case .uid(let root) = objects[rootReference], root > 0, root < elements.count
            else { return nil }
            var converted: [ArchiveValue] = []
            converted.reserveCapacity(elements.count)
            // Shared containers multiplied out past this are left to Foundation's path, which refuses them.
            var budget = PlistConverter.conversionBudget(bytes: bytes.count)
            for element in elements {
                if case .dictionary(let names, let values) = objects[element] {
                    var result: [String: ArchiveValue] = [:]
                    for (name, value) in zip(names, values) {
                        guard let key = string(name) else { return nil }
                        if keys.contains(key) {
                            guard let converted = convert(value, depth: 1, budget: &budget), result.updateValue(converted, forKey: key) == nil else { return nil }
                        }
                    }
                    converted.append(.dictionary(result))
                } else {
                    guard let value = convert(element, depth: 0, budget: &budget) else { return nil }
                    converted.append(value)
                }
            }
            return (converted, root)
        }

        /// `PlistConverter.convert` of the object Foundation would give; nil for a dictionary with
        /// a key given twice (which of the two Foundation keeps is left to it).
        func convert(_ index: Int, depth: Int, budget: inout Int) -> ArchiveValue? {
            guard depth <= KeyedArchive.maxDepth else { return .unsupported }
            budget -= 1
            guard budget >= 0 else { return nil }
            switch objects[index] {
            case .bool(let flag): return .bool(flag)
            case .int(let number): return .int(number)
            case .double(let number): return .double(number)
            case .date: return .unsupported
            case .data(let range): return .data(Data(UnsafeBufferPointer(rebasing: bytes[range])))
            case .string(let text): return .string(text)
            case .uid(let value): return .uid(value)
            case .array(let elements):
                var result: [ArchiveValue] = []
                result.reserveCapacity(elements.count)
                for element in elements {
                    guard let value = convert(element, depth: depth + 1, budget: &budget) else { return nil }
                    result.append(value)
                }
                return .array(result)
            case .dictionary(let keys, let values):
                var result: [String: ArchiveValue] = [:]
                for (key, value) in zip(keys, values) {
                    guard let name = string(key), let converted = convert(value, depth: depth + 1, budget: &budget),
                          result.updateValue(converted, forKey: name) == nil else { return nil }
                }
                return .dictionary(result)
            }
        }
    }
}

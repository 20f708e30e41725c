import Foundation

/// A deterministic binary property list (`bplist00`) writer for the fixture metadata.
///
/// `PropertyListSerialization` writes dictionary keys in hash order, which varies between
/// dictionary instances; fixtures must be byte-for-byte reproducible, so keys are sorted here.
/// Supports what `Z_PLIST` needs: dictionaries with string keys, arrays, strings, integers,
/// booleans, data.
enum BinaryPlistWriter {
    indirect enum Value {
        case string(String)
        case integer(Int)
        case bool(Bool)
        case data(Data)
        case array([Value])
        case dictionary([(String, Value)])
    }

    static func encode(_ root: Value) -> Data {
        // Flatten depth-first: each object gets an index; containers refer to children by index.
        var objects: [Value] = []
        var children: [[Int]] = []
        func add(_ value: Value) -> Int {
            let index = objects.count
            objects.append(value)
            children.append([])
            var references: [Int] = []
            switch value {
            case .array(let items):
                for item in items { references.append(add(item)) }
            case .dictionary(let pairs):
                let sorted = pairs.sorted { $0.0 < $1.0 }
                for (key, _) in sorted { references.append(add(.string(key))) }
                for (_, item) in sorted { references.append(add(item)) }
            default:
                break
            }
            children[index] = references
            return index
        }
        _ = add(root)

        let referenceSize = objects.count < 256 ? 1 : (objects.count < 65536 ? 2 : 4)
        var output = Data("bplist00".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(output.count)
            switch object {
            case .string(let text):
                if text.unicodeScalars.allSatisfy(\.isASCII) {
                    let bytes = Array(text.utf8)
                    appendMarker(0x50, count: bytes.count, to: &output)
                    output.append(contentsOf: bytes)
                } else {
                    let units = Array(text.utf16)
                    appendMarker(0x60, count: units.count, to: &output)
                    for unit in units { output.append(contentsOf: [UInt8(unit >> 8), UInt8(unit & 0xFF)]) }
                }
            case .integer(let number):
                appendInteger(number, to: &output)
            case .bool(let flag):
                output.append(flag ? 0x09 : 0x08)
            case .data(let bytes):
                appendMarker(0x40, count: bytes.count, to: &output)
                output.append(bytes)
            case .array:
                appendMarker(0xA0, count: children[index].count, to: &output)
                for reference in children[index] { appendBigEndian(reference, size: referenceSize, to: &output) }
            case .dictionary:
                appendMarker(0xD0, count: children[index].count / 2, to: &output)
                for reference in children[index] { appendBigEndian(reference, size: referenceSize, to: &output) }
            }
        }
        let offsetTableStart = output.count
        let offsetSize = offsetTableStart < 256 ? 1 : (offsetTableStart < 65536 ? 2 : (offsetTableStart < 1 << 32 ? 4 : 8))
        for offset in offsets { appendBigEndian(offset, size: offsetSize, to: &output) }
        output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)])
        appendBigEndian(objects.count, size: 8, to: &output)
        appendBigEndian(0, size: 8, to: &output)
        appendBigEndian(offsetTableStart, size: 8, to: &output)
        return output
    }

    private static func appendMarker(_ marker: UInt8, count: Int, to output: inout Data) {
        if count < 15 {
            output.append(marker | UInt8(count))
        } else {
            output.append(marker | 0x0F)
            appendInteger(count, to: &output)
        }
    }

    private static func appendInteger(_ number: Int, to output: inout Data) {
        switch number {
        case 0..<256:
            output.append(0x10)
            appendBigEndian(number, size: 1, to: &output)
        case 256..<65536:
            output.append(0x11)
            appendBigEndian(number, size: 2, to: &output)
        case 65536..<(1 << 31):
            output.append(0x12)
            appendBigEndian(number, size: 4, to: &output)
        default:
            output.append(0x13)
            appendBigEndian(number, size: 8, to: &output)
        }
    }

    private static func appendBigEndian(_ value: Int, size: Int, to output: inout Data) {
        let bits = UInt64(bitPattern: Int64(value))
        for index in stride(from: size - 1, through: 0, by: -1) {
            output.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index))))
        }
    }
}

import LivePairFormats
import Testing

/// A binary plist made by hand: objects as their encoded bytes, then the offset table and trailer.
private func binaryPlist(
    _ objects: [[UInt8]], top: UInt64 = 0, referenceSize: UInt8 = 1, offsetSize: UInt8 = 2,
    objectCount: UInt64? = nil, offsets override: [Int]? = nil
) -> [UInt8] {
    var bytes = Array("bplist00".utf8)
    var offsets: [Int] = []
    for object in objects {
        offsets.append(bytes.count)
        bytes += object
    }
    let tableOffset = bytes.count
    for offset in override ?? offsets {
        for index in (0..<Int(offsetSize)).reversed() { bytes.append(UInt8(truncatingIfNeeded: offset >> (8 * index))) }
    }
    bytes += [0, 0, 0, 0, 0, 0, offsetSize, referenceSize]
    for value in [objectCount ?? UInt64(objects.count), top, UInt64(tableOffset)] {
        for index in (0..<8).reversed() { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }
    return bytes
}

private func readError(_ bytes: [UInt8], limits: ParseLimits = .default) -> FormatError? {
    do {
        _ = try PropertyListReader(limits: limits).read(bytes, context: "plist")
        return nil
    } catch {
        return error
    }
}

@Suite("Property lists: hostile input")
struct PropertyListRobustnessTests {
    @Test("a well-formed hand-made binary plist reads")
    func builderSanity() throws {
        // [ "ab", 5 ]
        let bytes = binaryPlist([[0xA2, 1, 2], [0x52, 0x61, 0x62], [0x10, 5]])
        #expect(try PropertyListReader().read(bytes) == .array([.string("ab"), .integer(5)]))
    }

    @Test("an array that contains itself, directly or through another, is a cycle")
    func cycles() {
        #expect(readError(binaryPlist([[0xA1, 0]])) == .invalid(context: "plist", reason: "object 0 contains itself (cyclic reference)"))
        #expect(readError(binaryPlist([[0xA1, 1], [0xD1, 2, 0], [0x51, 0x6B]])) == .invalid(context: "plist", reason: "object 0 contains itself (cyclic reference)"))
    }

    @Test("shared references that expand exponentially stop at the value limit")
    func exponentialSharing() {
        // Object i is [i+1, i+1]; the last is an integer: 2^30 leaves from 31 objects.
        var objects: [[UInt8]] = (0..<30).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
        objects.append([0x10, 1])
        #expect(readError(binaryPlist(objects)) == .limitExceeded(context: "plist", limit: "value count", value: 200_001, maximum: 200_000))
    }

    @Test("one large data object referenced many times stops at the decoded-bytes limit")
    func sharedLargeData() {
        let count = 2_000
        var array: [UInt8] = [0xAF, 0x11, UInt8(count >> 8), UInt8(count & 0xFF)]
        for _ in 0..<count { array += [0x00, 0x01] }
        let data: [UInt8] = [0x4F, 0x12, 0x00, 0x01, 0x00, 0x00] + [UInt8](repeating: 7, count: 65_536)
        let bytes = binaryPlist([array, data], referenceSize: 2, offsetSize: 4)
        var limits = ParseLimits.default
        limits.maximumMetadataBytes = 16 << 20
        guard case let .limitExceeded(_, limit, _, maximum)? = readError(bytes, limits: limits) else {
            Issue.record("no limit error")
            return
        }
        #expect(limit == "decoded string and data bytes" && maximum == 16 << 20)
    }

    @Test("nesting deeper than the depth limit throws, binary and XML")
    func deepNesting() {
        let objects: [[UInt8]] = (0..<40).map { $0 == 39 ? [0xA0] : [0xA1, UInt8($0 + 1)] }
        #expect(readError(binaryPlist(objects)) == .limitExceeded(context: "plist", limit: "nesting depth", value: 33, maximum: 32))
        let xml = "<plist>" + String(repeating: "<array>", count: 40) + String(repeating: "</array>", count: 40) + "</plist>"
        #expect(readError(Array(xml.utf8)) == .limitExceeded(context: "plist", limit: "nesting depth", value: 33, maximum: 32))
    }

    @Test("huge declared counts throw before anything is allocated")
    func hugeCounts() {
        // An array claiming 2^62 elements, a data object claiming 64 KiB, a trailer claiming 2^40 objects.
        let array = binaryPlist([[0xAF, 0x13, 0x40, 0, 0, 0, 0, 0, 0, 0]])
        #expect(readError(array) == .invalid(context: "plist", reason: "object at 8 declares 4611686018427387904 elements"))
        let data = binaryPlist([[0x4F, 0x12, 0x00, 0x01, 0x00, 0x00]])
        #expect(readError(data) == .invalid(context: "plist", reason: "object at 8 declares 65536 elements"))
        let objects = binaryPlist([[0x10, 1]], objectCount: 1 << 40)
        #expect(readError(objects) == .limitExceeded(context: "plist", limit: "object count", value: 1 << 40, maximum: 200_000))
    }

    @Test("wrong offsets and references throw")
    func wrongOffsets() {
        #expect(readError(binaryPlist([[0x10, 1]], offsets: [2])) == .invalid(context: "plist", reason: "object 0 at offset 2 lies outside the object area"))
        #expect(readError(binaryPlist([[0x10, 1]], offsets: [500])) == .invalid(context: "plist", reason: "object 0 at offset 500 lies outside the object area"))
        #expect(readError(binaryPlist([[0xA1, 9]])) == .invalid(context: "plist", reason: "object reference 9 is not below the object count 1"))
        #expect(readError(binaryPlist([[0x10, 1]], top: 3)) == .invalid(context: "plist", reason: "top object 3 is not below the object count 1"))
        #expect(readError(binaryPlist([[0x10, 1]], referenceSize: 0)) != nil)
        #expect(readError(binaryPlist([[0xD1, 1, 1], [0x10, 1]])) == .invalid(context: "plist", reason: "dictionary 0 has a key that is not a string"))
    }

    @Test("every truncation and every byte flip of real plists throws or reads, never traps")
    func truncatedAndFlipped() throws {
        for name in ["IMG_1853.binary.AAE", "every-type.bplist", "every-type.plist"] {
            let bytes = try AdjustmentFixtures.bytes(name)
            // An XML plist cut after its "</plist>" (only the last newline gone) is still whole.
            let whole = name.hasSuffix(".bplist") || name.hasSuffix(".AAE") ? bytes.count : bytes.count - 1
            for length in 0..<whole {
                #expect(readError(Array(bytes[0..<length])) != nil, "\(name) cut at \(length) read")
            }
            for index in 0..<bytes.count {
                var flipped = bytes
                flipped[index] ^= 0xFF
                _ = readError(flipped)
            }
        }
    }

    @Test("a file that is no property list is unsupported")
    func notAPlist() {
        #expect(readError(Array("hello".utf8)) == .unsupported(context: "plist", reason: "neither an XML nor a binary property list"))
        #expect(readError(Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40)) != nil)
        #expect(readError(Array("<plist><dict><string>x</string></dict></plist>".utf8)) == .invalid(context: "plist", reason: "<dict> entry without <key>"))
    }
}

/// A minimal PNG writer: 8-bit RGBA or gray, no interlace, filter 0 on every row, and a zlib
/// stream of stored (uncompressed) deflate blocks. Files are large but exact, and need no
/// compression library.
enum PNGEncoder {
    /// The PNG file for `image`.
    static func encode(_ image: PixelBuffer) -> [UInt8] {
        let rowBytes = image.width * image.format.bytesPerPixel
        // Raw scanlines: a filter-type byte (0, none) before each row.
        var scanlines = [UInt8]()
        scanlines.reserveCapacity((rowBytes + 1) * image.height)
        for row in 0..<image.height {
            scanlines.append(0)
            let start = row * image.bytesPerRow
            scanlines.append(contentsOf: image.storage[start..<start + rowBytes])
        }

        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = [UInt8]()
        header.appendBigEndian(UInt32(image.width))
        header.appendBigEndian(UInt32(image.height))
        header += [8, image.format == .rgba8 ? 6 : 0, 0, 0, 0]  // depth, colour type, compression, filter, interlace
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", zlibStored(scanlines), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// A zlib stream holding `data` in stored deflate blocks of at most 65535 bytes.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]  // deflate, 32K window, no preset dictionary; (0x7801 % 31 == 0)
        stream.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let isLast = offset + count == data.count
            stream.append(isLast ? 1 : 0)  // BFINAL, BTYPE 00 (stored)
            stream.append(UInt8(count & 0xFF))
            stream.append(UInt8(count >> 8))
            stream.append(UInt8(~count & 0xFF))
            stream.append(UInt8((~count >> 8) & 0xFF))
            stream.append(contentsOf: data[offset..<offset + count])
            offset += count
        } while offset < data.count
        stream.appendBigEndian(adler32(data))
        return stream
    }

    /// Appends a chunk (length, type, data, CRC of type and data).
    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        file.appendBigEndian(UInt32(data.count))
        file += typeBytes
        file += data
        file.appendBigEndian(crc32(typeBytes + data))
    }

    /// The CRC-32 (ISO 3309, as PNG uses) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The Adler-32 checksum of `bytes`, as zlib uses.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes is the longest run before the sums can overflow 32 bits.
            let end = min(index + 5552, bytes.count)
            while index < end {
                a += UInt32(bytes[index])
                b += a
                index += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }

    private static let crcTable: [UInt32] = (0..<256).map { value in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }
}

extension [UInt8] {
    /// Appends `value` as four big-endian bytes.
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24))
        append(UInt8(value >> 16 & 0xFF))
        append(UInt8(value >> 8 & 0xFF))
        append(UInt8(value & 0xFF))
    }
}

extension PixelBuffer {
    /// The image as a PNG file (8-bit RGBA or gray, uncompressed deflate blocks).
    public func pngData() -> [UInt8] { PNGEncoder.encode(self) }
}

import LivePairFormats
import LivePairMedia
import Testing

@Suite("PixelBuffer geometry")
struct PixelBufferGeometryTests {
    /// A 3x2 RGBA image whose pixel (x, y) has red = x, green = y.
    private func numbered(width: Int = 3, height: Int = 2, padding: Int = 0) throws -> PixelBuffer {
        let row = width * 4 + padding
        var bytes = [UInt8](repeating: 0xEE, count: row * height)
        for y in 0..<height {
            for x in 0..<width {
                bytes[y * row + x * 4..<y * row + x * 4 + 4] = [UInt8(x), UInt8(y), 7, 255]
            }
        }
        return try PixelBuffer(width: width, height: height, bytesPerRow: row, format: .rgba8, storage: bytes)
    }

    /// The (x, y) source coordinates each output pixel came from, row by row.
    private func origins(_ image: PixelBuffer) -> [[String]] {
        (0..<image.height).map { y in
            (0..<image.width).map { x in
                let pixel = Array(image.pixel(x: x, y: y)!)
                return "\(pixel[0]),\(pixel[1])"
            }
        }
    }

    @Test("rotating 90 degrees anticlockwise brings the top-right corner to the top-left")
    func rotatesAnticlockwise() throws {
        let image = try numbered().rotated(anticlockwiseDegrees: 90)
        #expect(image.width == 2 && image.height == 3)
        #expect(origins(image) == [["2,0", "2,1"], ["1,0", "1,1"], ["0,0", "0,1"]])
    }

    @Test("rotating 270 degrees (90 clockwise) brings the bottom-left corner to the top-left")
    func rotatesClockwise() throws {
        let image = try numbered().rotated(anticlockwiseDegrees: 270)
        #expect(origins(image) == [["0,1", "0,0"], ["1,1", "1,0"], ["2,1", "2,0"]])
        #expect(try numbered().rotated(anticlockwiseDegrees: -90) == image)
    }

    @Test("a half turn reverses rows and columns; four quarter turns are the identity")
    func halfTurnAndIdentity() throws {
        let image = try numbered()
        #expect(origins(try image.rotated(anticlockwiseDegrees: 180)) == [["2,1", "1,1", "0,1"], ["2,0", "1,0", "0,0"]])
        var turned = image
        for _ in 0..<4 { turned = try turned.rotated(anticlockwiseDegrees: 90) }
        #expect(turned.packedBytes == image.packedBytes)
        #expect(throws: MediaError.unsupported("rotation by 45 degrees")) { try image.rotated(anticlockwiseDegrees: 45) }
    }

    @Test("imir axis 0 swaps top and bottom, axis 1 swaps left and right")
    func mirrors() throws {
        let image = try numbered()
        #expect(origins(try image.mirrored(.horizontal)) == [["0,1", "1,1", "2,1"], ["0,0", "1,0", "2,0"]])
        #expect(origins(try image.mirrored(.vertical)) == [["2,0", "1,0", "0,0"], ["2,1", "1,1", "0,1"]])
    }

    @Test("padded rows are read through bytesPerRow")
    func paddedRows() throws {
        let padded = try numbered(padding: 5)
        #expect(padded.bytesPerRow == 17)
        #expect(origins(try padded.rotated(anticlockwiseDegrees: 90)) == origins(try numbered().rotated(anticlockwiseDegrees: 90)))
        #expect(padded.packedBytes.count == 24)
    }

    @Test("equality compares pixels, not row padding")
    func equalityIgnoresPadding() throws {
        #expect(try numbered(padding: 5) == numbered())
        #expect(try numbered(padding: 5).rotated(anticlockwiseDegrees: 90) == numbered().rotated(anticlockwiseDegrees: 90))
        #expect(try numbered() != numbered(width: 2))
        #expect(try numbered().pixel(x: 3, y: 0) == nil)
    }

    @Test("cropping copies the rectangle and refuses one outside the image")
    func crops() throws {
        let image = try numbered(width: 5, height: 4)
        let crop = try image.cropped(x: 1, y: 2, width: 3, height: 2)
        #expect(origins(crop) == [["1,2", "2,2", "3,2"], ["1,3", "2,3", "3,3"]])
        #expect(throws: MediaError.self) { try image.cropped(x: 3, y: 0, width: 3, height: 1) }
        #expect(throws: MediaError.self) { try image.cropped(x: 0, y: 0, width: 0, height: 1) }
    }

    @Test("gray buffers rotate and mirror too")
    func grayGeometry() throws {
        let gray = try PixelBuffer(width: 3, height: 2, format: .gray8, storage: [1, 2, 3, 4, 5, 6])
        #expect(try gray.rotated(anticlockwiseDegrees: 90).packedBytes == [3, 6, 2, 5, 1, 4])
        #expect(try gray.mirrored(.vertical).packedBytes == [3, 2, 1, 6, 5, 4])
    }

    @Test("a buffer too small for its declared size is refused")
    func validatesStorage() {
        #expect(throws: MediaError.self) { try PixelBuffer(width: 2, height: 2, format: .rgba8, storage: [0, 0, 0]) }
        #expect(throws: MediaError.self) { try PixelBuffer(width: 0, height: 2, format: .rgba8, storage: []) }
        #expect(throws: MediaError.self) {
            try PixelBuffer(width: 2, height: 1, bytesPerRow: 4, format: .rgba8, storage: [UInt8](repeating: 0, count: 8))
        }
    }
}

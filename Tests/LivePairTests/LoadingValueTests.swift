import LivePair
import LivePairFormats
import LivePairMedia
import Synchronization
import Testing

/// Request ids, geometry and orientation helpers.
@Suite("Loading: values")
struct LoadingValueTests {
    @Test("request ids are unique across threads and increase")
    func uniqueIDs() async {
        let all = await withTaskGroup(of: [RequestID].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var local: [RequestID] = []
                    for _ in 0..<1_000 { local.append(RequestID.next()) }
                    return local
                }
            }
            var all: [RequestID] = []
            for await local in group {
                #expect(local == local.sorted())
                all += local
            }
            return all
        }
        #expect(Set(all).count == 8_000)
    }

    @Test("the maximum-size sentinel and normalized rectangles")
    func sizes() {
        #expect(PixelSize.maximum.isMaximum && ImageManagerMaximumSize == .maximum)
        #expect(!PixelSize(width: 10, height: 10).isMaximum)
        let rect = NormalizedRect(x: 0.25, y: 0.5, width: 2, height: 0.5)
        #expect(rect.width == 0.75)
        #expect(rect.pixelRect(width: 100, height: 10) == (25, 5, 75, 5))
    }

    @Test("Exif orientations turn an image upright", arguments: 1...8)
    func orientation(_ value: Int) throws {
        // A 3x2 image whose top-left pixel is marked: after the transform it must be where the
        // orientation says the stored top-left corner is displayed.
        var storage = [UInt8](repeating: 0, count: 3 * 2 * 4)
        storage[0] = 255
        let image = try PixelBuffer(width: 3, height: 2, format: .rgba8, storage: storage)
        let upright = try image.applyingExifOrientation(value)
        #expect((upright.width, upright.height) == (value >= 5 ? (2, 3) : (3, 2)))
        let corners: [Int: (Int, Int)] = [
            1: (0, 0), 2: (upright.width - 1, 0), 3: (upright.width - 1, upright.height - 1), 4: (0, upright.height - 1),
            5: (0, 0), 6: (upright.width - 1, 0), 7: (upright.width - 1, upright.height - 1), 8: (0, upright.height - 1),
        ]
        let (x, y) = try #require(corners[value])
        #expect(upright.pixel(x: x, y: y)?.first == 255, "orientation \(value)")
    }

    @Test("loader errors have stable codes")
    func errorCodes() {
        #expect(LoaderError.cancelled.code == "cancelled")
        #expect(LoaderError.invalidPair(findings: []).code == "invalid-pair")
        #expect(LoaderError.stillDecodeFailed(path: "x", .cancelled).code == "still-decode-failed")
    }
}

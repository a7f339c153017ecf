import Foundation
@testable import LivePair
import LivePairMedia
import TestSupport
import Testing

/// Long Exposure's alignment (`FrameAlignment`, `FrameBlending.Averager(aligning:)`) on a real
/// frame: a hand-held shake made by cutting windows of one decoded frame of train.mov at known
/// offsets, so the shift each window needs is known to the pixel.
@Suite("Long Exposure: frames aligned on the first before they are averaged")
struct FrameAlignmentTests {
    /// A 480x360 window of train.mov's frame at 0.5 s (its upright frame, 1440x1080 or larger),
    /// its top left corner at (200 + dx, 150 + dy): the same scene, the camera moved by (dx, dy).
    static func window(dx: Int, dy: Int) throws -> PixelBuffer {
        try frame.get().cropped(x: 200 + dx, y: 150 + dy, width: 480, height: 360)
    }

    /// The frame, decoded once for the suite.
    static let frame = Result { try VideoFrameDecoder.uprightFrame(path: SampleMedia.path("live/train.mov"), at: 0.5) }

    /// The shakes, as the camera's moves from the first window.
    static let shakes = [(dx: 3, dy: -2), (dx: -7, dy: 5), (dx: 12, dy: 0), (dx: 0, dy: -9), (dx: -15, dy: -11), (dx: 1, dy: 1)]

    @Test("the shift of each shaken window is found to the pixel; an unshaken one is not moved")
    func offsetsFound() throws {
        let frame = try Self.frame.get()
        try #require(frame.width >= 900 && frame.height >= 700, "train.mov's frame: \(frame.width)x\(frame.height)")
        let alignment = FrameAlignment(reference: try Self.window(dx: 0, dy: 0))
        for shake in Self.shakes {
            let found = alignment.offset(of: try Self.window(dx: shake.dx, dy: shake.dy))
            // The window cut at (200 + dx, 150 + dy) shows at (x - dx, y - dy) what the first shows at (x, y).
            #expect(found.dx == -shake.dx && found.dy == -shake.dy, "shake \(shake): found \(found)")
        }
        let same = alignment.offset(of: try Self.window(dx: 0, dy: 0))
        #expect(same.dx == 0 && same.dy == 0)
    }

    @Test("the aligned mean of the shaken windows is the first window, away from the edges; the unaligned mean is blurred")
    func alignedMeanIsSharp() throws {
        let frame = try Self.frame.get()
        try #require(frame.width >= 900 && frame.height >= 700)
        var aligned = FrameBlending.Averager(aligning: true)
        var plain = FrameBlending.Averager()
        for shake in [(dx: 0, dy: 0)] + Self.shakes {
            let window = try Self.window(dx: shake.dx, dy: shake.dy)
            try aligned.add(window)
            try plain.add(window)
        }
        #expect(aligned.offsets.map { [$0.dx, $0.dy] } == [[0, 0]] + Self.shakes.map { [-$0.dx, -$0.dy] })
        #expect(plain.offsets.allSatisfy { $0.dx == 0 && $0.dy == 0 })
        // Away from the largest shake (15 px), every aligned frame shows the first window's pixels.
        let margin = 16
        let first = try Self.window(dx: 0, dy: 0).cropped(x: margin, y: margin, width: 480 - 2 * margin, height: 360 - 2 * margin)
        let sharp = try #require(try aligned.mean()).cropped(x: margin, y: margin, width: 480 - 2 * margin, height: 360 - 2 * margin)
        let blurred = try #require(try plain.mean()).cropped(x: margin, y: margin, width: 480 - 2 * margin, height: 360 - 2 * margin)
        #expect(sharp == first)
        #expect(try #require(blurred.meanAbsoluteDifference(to: first)) > 2)
    }
}

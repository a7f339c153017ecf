import LivePairMedia

/// The camera's shake between two frames of a hand-held Live Photo, as a whole-pixel translation
/// (Long Exposure aligns every frame on the first before averaging them): found on the frames'
/// luma, coarse to fine. At the coarsest level (the frame halved until its smaller side is under
/// 128 pixels) every shift up to `searchFraction` of that side is tried; each finer level doubles
/// the shift and tries its eight neighbours. A shift is scored by the mean absolute luma
/// difference over the two frames' overlap (at least half of the frame), sampled every other
/// pixel on the two finest levels. A shift is kept only when it scores clearly better than none
/// (`improvement`), so a still camera with a moving subject stays unshifted.
struct FrameAlignment: Sendable {
    /// Luma (one byte per pixel) at one level of the pyramid.
    struct Luma: Sendable {
        let width: Int
        let height: Int
        let values: [UInt8]
    }

    /// The largest shift tried at the coarsest level, as a fraction of its smaller side.
    static let searchFraction = 0.1
    /// How much lower than the unshifted frame's score a shift must score to be kept: 0.9 keeps
    /// a shift that removes at least a tenth of the difference.
    static let improvement = 0.9
    /// The coarsest level's smaller side is below this.
    static let coarsestSide = 128

    /// The reference frame's pyramid, full size first.
    let reference: [Luma]

    /// Prepares `frame` as the reference the others are aligned on.
    init(reference frame: PixelBuffer) {
        reference = Self.pyramid(frame)
    }

    /// The shift (dx, dy) that lines `frame` up with the reference: `frame` at (x + dx, y + dy)
    /// shows what the reference shows at (x, y). (0, 0) for a frame of another size.
    func offset(of frame: PixelBuffer) -> (dx: Int, dy: Int) {
        let levels = Self.pyramid(frame)
        guard levels.count == reference.count, levels[0].width == reference[0].width, levels[0].height == reference[0].height
        else { return (0, 0) }
        let coarsest = levels.count - 1
        let radius = max(2, Int(Double(min(levels[coarsest].width, levels[coarsest].height)) * Self.searchFraction))
        var best = (dx: 0, dy: 0)
        var bestScore = Double.infinity
        for dy in -radius...radius {
            for dx in -radius...radius {
                guard let score = Self.score(levels[coarsest], reference[coarsest], dx: dx, dy: dy, step: 1), score < bestScore else {
                    continue
                }
                (best, bestScore) = ((dx, dy), score)
            }
        }
        for level in stride(from: coarsest - 1, through: 0, by: -1) {
            let step = level <= 1 ? 2 : 1
            let center = (dx: best.dx * 2, dy: best.dy * 2)
            bestScore = .infinity
            for dy in -1...1 {
                for dx in -1...1 {
                    let shift = (dx: center.dx + dx, dy: center.dy + dy)
                    guard let score = Self.score(levels[level], reference[level], dx: shift.dx, dy: shift.dy, step: step),
                        score < bestScore
                    else { continue }
                    (best, bestScore) = (shift, score)
                }
            }
        }
        guard best.dx != 0 || best.dy != 0, let shifted = Self.score(levels[0], reference[0], dx: best.dx, dy: best.dy, step: 2),
            let unshifted = Self.score(levels[0], reference[0], dx: 0, dy: 0, step: 2), shifted < unshifted * Self.improvement
        else { return (0, 0) }
        return best
    }

    /// `frame` moved by the shift `offset` returned: each pixel (x, y) is the frame's (x + dx,
    /// y + dy), the frame's nearest edge pixel where that falls outside it.
    static func shifted(_ frame: PixelBuffer, dx: Int, dy: Int) throws(MediaError) -> PixelBuffer {
        guard dx != 0 || dy != 0 else { return frame }
        let bytesPerPixel = frame.format.bytesPerPixel
        let (width, height) = (frame.width, frame.height)
        let source = frame.packedBytes
        var moved = [UInt8](repeating: 0, count: source.count)
        source.withUnsafeBufferPointer { input in
            moved.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let sourceRow = min(height - 1, max(0, y + dy)) * width
                    for x in 0..<width {
                        let from = (sourceRow + min(width - 1, max(0, x + dx))) * bytesPerPixel
                        let to = (y * width + x) * bytesPerPixel
                        for channel in 0..<bytesPerPixel { output[to + channel] = input[from + channel] }
                    }
                }
            }
        }
        return try PixelBuffer(width: width, height: height, format: frame.format, storage: moved)
    }

    /// The luma of `frame` (Rec. 601 weights in integers), then halved (2x2 means) until the
    /// smaller side is under `coarsestSide`.
    static func pyramid(_ frame: PixelBuffer) -> [Luma] {
        let bytes = frame.packedBytes
        let count = frame.width * frame.height
        var values = [UInt8](repeating: 0, count: count)
        switch frame.format {
        case .gray8:
            values = bytes
        case .rgba8:
            bytes.withUnsafeBufferPointer { rgba in
                values.withUnsafeMutableBufferPointer { luma in
                    for index in 0..<count {
                        let red = Int(rgba[index * 4]), green = Int(rgba[index * 4 + 1]), blue = Int(rgba[index * 4 + 2])
                        luma[index] = UInt8((77 * red + 150 * green + 29 * blue + 128) >> 8)
                    }
                }
            }
        }
        var levels = [Luma(width: frame.width, height: frame.height, values: values)]
        while let last = levels.last, min(last.width, last.height) >= coarsestSide, last.width >= 2, last.height >= 2 {
            levels.append(halved(last))
        }
        return levels
    }

    /// Each 2x2 block's mean (an odd last row or column dropped).
    private static func halved(_ luma: Luma) -> Luma {
        let (width, height) = (luma.width / 2, luma.height / 2)
        var values = [UInt8](repeating: 0, count: width * height)
        luma.values.withUnsafeBufferPointer { input in
            values.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let top = 2 * y * luma.width, bottom = top + luma.width
                    for x in 0..<width {
                        let sum = Int(input[top + 2 * x]) + Int(input[top + 2 * x + 1]) + Int(input[bottom + 2 * x])
                            + Int(input[bottom + 2 * x + 1])
                        output[y * width + x] = UInt8((sum + 2) >> 2)
                    }
                }
            }
        }
        return Luma(width: width, height: height, values: values)
    }

    /// The mean absolute difference between `frame` at (x + dx, y + dy) and `reference` at (x, y)
    /// over their overlap, sampled every `step` pixels; nil when the overlap is under half the frame.
    private static func score(_ frame: Luma, _ reference: Luma, dx: Int, dy: Int, step: Int) -> Double? {
        let (width, height) = (reference.width, reference.height)
        let xs = max(0, -dx)..<min(width, width - dx), ys = max(0, -dy)..<min(height, height - dy)
        guard xs.count * ys.count * 2 >= width * height else { return nil }
        var total = 0, samples = 0
        frame.values.withUnsafeBufferPointer { moved in
            reference.values.withUnsafeBufferPointer { fixed in
                for y in stride(from: ys.lowerBound, to: ys.upperBound, by: step) {
                    let fixedRow = y * width, movedRow = (y + dy) * width + dx
                    for x in stride(from: xs.lowerBound, to: xs.upperBound, by: step) {
                        total += abs(Int(moved[movedRow + x]) - Int(fixed[fixedRow + x]))
                        samples += 1
                    }
                }
            }
        }
        return samples > 0 ? Double(total) / Double(samples) : nil
    }
}

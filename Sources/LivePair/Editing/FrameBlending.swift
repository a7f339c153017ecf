import LivePairMedia

/// The pixel arithmetic of playback variations, on RGBA frames of one size: a crossfade (Loop)
/// and a running mean (Long Exposure).
enum FrameBlending {
    /// `first` and `second` mixed, `second` weighing `weight` (0...1), each channel rounded.
    static func crossfade(_ first: PixelBuffer, _ second: PixelBuffer, weight: Double) throws(MediaError) -> PixelBuffer {
        guard first.width == second.width, first.height == second.height, first.format == second.format else {
            throw .invalidImage(reason: "frames of \(first.width)x\(first.height) and \(second.width)x\(second.height)")
        }
        let scale = Int((min(1, max(0, weight)) * 256).rounded())
        let (a, b) = (first.packedBytes, second.packedBytes)
        var mixed = [UInt8](repeating: 0, count: a.count)
        a.withUnsafeBufferPointer { left in
            b.withUnsafeBufferPointer { right in
                for index in 0..<left.count {
                    let value = Int(left[index]) * (256 - scale) + Int(right[index]) * scale
                    mixed[index] = UInt8((value + 128) >> 8)
                }
            }
        }
        return try PixelBuffer(width: first.width, height: first.height, format: first.format, storage: mixed)
    }

    /// The mean of frames added one by one (Long Exposure), in 32-bit sums: exact for up to
    /// 16 million frames. When aligning, each frame after the first is first moved onto the
    /// first (`FrameAlignment`: the camera's shake, a whole-pixel translation).
    struct Averager {
        private var sums: [UInt32] = []
        private(set) var count = 0
        private var size: (width: Int, height: Int, format: PixelBuffer.Format)?
        private let aligns: Bool
        private var alignment: FrameAlignment?
        /// The shift applied to each frame added, in order ((0, 0) for the first, and for every
        /// frame when not aligning).
        private(set) var offsets: [(dx: Int, dy: Int)] = []

        /// An averager that moves each frame onto the first before adding it when `aligning`.
        init(aligning: Bool = false) {
            aligns = aligning
        }

        /// Adds `frame` to the sums; every frame must have the first frame's size.
        mutating func add(_ added: PixelBuffer) throws(MediaError) {
            var frame = added
            if aligns, size != nil, let alignment {
                let offset = alignment.offset(of: frame)
                frame = try FrameAlignment.shifted(frame, dx: offset.dx, dy: offset.dy)
                offsets.append(offset)
            } else {
                if aligns, size == nil { alignment = FrameAlignment(reference: frame) }
                offsets.append((0, 0))
            }
            if let size {
                guard size.width == frame.width, size.height == frame.height, size.format == frame.format else {
                    throw .invalidImage(reason: "a frame of \(frame.width)x\(frame.height) among \(size.width)x\(size.height)")
                }
            } else {
                size = (frame.width, frame.height, frame.format)
                sums = [UInt32](repeating: 0, count: frame.width * frame.height * frame.format.bytesPerPixel)
            }
            let bytes = frame.packedBytes
            sums.withUnsafeMutableBufferPointer { total in
                bytes.withUnsafeBufferPointer { added in
                    for index in 0..<added.count { total[index] &+= UInt32(added[index]) }
                }
            }
            count += 1
        }

        /// Each channel's mean over the frames added, rounded; nil before the first frame.
        func mean() throws(MediaError) -> PixelBuffer? {
            guard let size, count > 0 else { return nil }
            let frames = UInt32(count), half = UInt32(count / 2)
            let bytes = sums.map { UInt8(($0 + half) / frames) }
            return try PixelBuffer(width: size.width, height: size.height, format: size.format, storage: bytes)
        }
    }
}

internal import CTurboJPEG

extension PixelBuffer {
    /// The image encoded as a baseline JPEG by libjpeg-turbo, with 4:2:0 chroma subsampling for
    /// RGBA (alpha is dropped) or a single gray component.
    ///
    /// - Parameter quality: 1 (smallest) to 100 (best); values outside are clamped.
    public func jpegData(quality: Int = 90) throws(MediaError) -> [UInt8] {
        guard let width32 = Int32(exactly: width), let height32 = Int32(exactly: height),
            let pitch = Int32(exactly: bytesPerRow)
        else { throw .encodeFailed(reason: "image of \(width)x\(height) is too large for JPEG") }
        guard width <= 65_500, height <= 65_500 else {
            throw .encodeFailed(reason: "JPEG sides are limited to 65500 pixels, image is \(width)x\(height)")
        }
        let pixelFormat = format == .rgba8 ? TJPF_RGBA : TJPF_GRAY
        let subsampling = format == .rgba8 ? TJSAMP_420 : TJSAMP_GRAY
        let clampedQuality = Int32(min(max(quality, 1), 100))
        return try TurboJPEG.withCompressor { handle throws(MediaError) in
            var output: UnsafeMutablePointer<UInt8>?
            var size: UInt = 0
            defer { if let output { tjFree(output) } }
            let result = storage.withUnsafeBufferPointer { pixels in
                tjCompress2(
                    handle, pixels.baseAddress, width32, pitch, height32, Int32(pixelFormat.rawValue), &output, &size,
                    Int32(subsampling.rawValue), clampedQuality, 0)
            }
            guard result == 0, let output else {
                throw .encodeFailed(reason: "tjCompress2: \(TurboJPEG.message(handle))")
            }
            return Array(UnsafeBufferPointer(start: output, count: Int(size)))
        }
    }
}

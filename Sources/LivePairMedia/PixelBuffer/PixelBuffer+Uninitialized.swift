extension PixelBuffer {
    /// Like `make(width:height:format:fill:)`, but the storage is not zeroed first: `fill` must
    /// write every pixel (the trailing slack is zeroed here). Zeroing a 24 MP RGBA image costs
    /// tens of milliseconds of page faults in one uninterruptible pass; without it the pages are
    /// touched by the fill itself, piece by piece, between its cancellation checks. When `fill`
    /// throws, the storage is discarded unread.
    static func makeUninitialized(
        width: Int, height: Int, format: Format,
        fill: (UnsafeMutableBufferPointer<UInt8>, _ bytesPerRow: Int) throws(MediaError) -> Void
    ) throws(MediaError) -> PixelBuffer {
        let bytesPerRow = width * format.bytesPerPixel
        let imageBytes = bytesPerRow * height
        var failure: MediaError?
        let storage = [UInt8](unsafeUninitializedCapacity: imageBytes + trailingSlack) { buffer, count in
            if let slack = buffer.baseAddress?.advanced(by: imageBytes) {
                slack.initialize(repeating: 0, count: trailingSlack)
            }
            do throws(MediaError) { try fill(buffer, bytesPerRow) } catch { failure = error }
            count = imageBytes + trailingSlack
        }
        if let failure { throw failure }
        return PixelBuffer(unchecked: width, height: height, bytesPerRow: bytesPerRow, format: format, storage: storage)
    }
}

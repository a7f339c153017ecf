import LivePairMedia

extension PixelBuffer {
    /// The image made opaque over a white background (straight alpha: each colour channel becomes
    /// `c * a + 255 * (1 - a)`, rounded), as a viewer shows a transparent PNG. HEIC and JPEG stills
    /// have no alpha: dropping it would show whatever colour the transparent pixels hold (often
    /// black). An opaque or grey image is returned as it is.
    func compositedOnWhite() -> PixelBuffer {
        guard format == .rgba8 else { return self }
        var bytes = storage
        var changed = false
        for row in 0..<height {
            var index = row * bytesPerRow
            for _ in 0..<width {
                let alpha = Int(bytes[index + 3])
                if alpha != 255 {
                    changed = true
                    for channel in 0..<3 {
                        bytes[index + channel] = UInt8((Int(bytes[index + channel]) * alpha + 255 * (255 - alpha) + 127) / 255)
                    }
                    bytes[index + 3] = 255
                }
                index += 4
            }
        }
        guard changed else { return self }
        return (try? PixelBuffer(width: width, height: height, bytesPerRow: bytesPerRow, format: format, storage: bytes)) ?? self
    }
}

/// The pixel layout of an image request's results.
public enum ImagePixelFormat: String, Hashable, Sendable, CaseIterable {
    /// Packed red, green, blue, alpha, one byte each (`PixelBuffer`, format `.rgba8`).
    case rgba8
    /// Planar YUV 4:2:0, 8 bits (`PlanarPixelBuffer`, `yuv420p`): limited range, BT.601, as
    /// H.264 encoders and most players expect.
    case yuv420p
}

public import LivePairFormats

extension VideoFrameDecoder {
    /// The frame of the movie at `path` nearest `seconds`, decoded at its coded size and turned
    /// upright by the video track's display rotation (the `tkhd` matrix, as FFmpeg reports it):
    /// the still `livepair make --video` encodes.
    ///
    /// Like FFmpeg 5.1's own autorotation, only the matrix's rotation is applied; a mirroring
    /// matrix (which cameras do not write) is not.
    ///
    /// - Throws: `unsupported` when the rotation is not a multiple of 90 degrees; otherwise as
    ///   `VideoFrameProbe.probe(path:)` and `decodeFrame(path:at:)` (sizes checked against `limits`).
    public static func uprightFrame(
        path: String, at seconds: Double, limits: ParseLimits = .default
    ) throws(MediaError) -> PixelBuffer {
        try uprightFrameAndColour(path: path, at: seconds, limits: limits).image
    }

    /// As `uprightFrame(path:at:limits:)`, with the colour space the video declares (nil when it
    /// names no primaries): the still made from the frame declares the same.
    public static func uprightFrameAndColour(
        path: String, at seconds: Double, limits: ParseLimits = .default
    ) throws(MediaError) -> (image: PixelBuffer, colour: ColourDescription?) {
        let info = try VideoFrameProbe().probe(path: path)
        let quarterTurns = (info.rotationDegrees / 90).rounded()
        guard abs(info.rotationDegrees - quarterTurns * 90) < 0.01 else {
            throw .unsupported("\(path): display rotation by \(info.rotationDegrees) degrees")
        }
        let frame = try VideoFrameDecoder(limits: limits).decodeFrame(path: path, at: seconds)
        let anticlockwise = ((Int(quarterTurns) % 4 + 4) % 4) * 90
        guard anticlockwise != 0 else { return (frame.image, frame.colour) }
        return (try frame.image.rotated(anticlockwiseDegrees: anticlockwise), frame.colour)
    }
}

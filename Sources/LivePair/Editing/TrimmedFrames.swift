import LivePairFormats
import LivePairMedia

/// The frames of a movie inside a trim window, decoded in presentation order and turned upright
/// by the video track's rotation (as `make --video` turns its still), each with its time on the
/// original movie's timeline.
struct TrimmedFrames {
    /// The movie.
    let path: String
    /// Seconds of the movie kept: a frame is kept when its presentation time is in
    /// `window.lowerBound ..< window.upperBound`.
    let window: Range<Double>
    let limits: ParseLimits

    /// Calls `body` with every kept frame (upright) and its presentation time, in order.
    func forEach(_ body: (DecodedVideoFrame, PixelBuffer) throws(PackagingError) -> Void) throws(PackagingError) {
        let anticlockwise: Int
        let reader: SequentialFrameReader
        do throws(MediaError) {
            let info = try VideoFrameProbe().probe(path: path)
            let quarterTurns = (info.rotationDegrees / 90).rounded()
            guard abs(info.rotationDegrees - quarterTurns * 90) < 0.01 else {
                throw MediaError.unsupported("\(path): display rotation by \(info.rotationDegrees) degrees")
            }
            anticlockwise = ((Int(quarterTurns) % 4 + 4) % 4) * 90
            reader = try SequentialFrameReader(path: path, limits: limits)
        } catch {
            throw .media(error)
        }
        while true {
            let next: DecodedVideoFrame?
            let upright: PixelBuffer
            do throws(MediaError) {
                next = try reader.next()
                guard let next else { return }
                if next.presentationTime < window.lowerBound - Self.tolerance { continue }
                if next.presentationTime >= window.upperBound - Self.tolerance { return }
                upright = anticlockwise == 0 ? next.image : try next.image.rotated(anticlockwiseDegrees: anticlockwise)
            } catch {
                throw .media(error)
            }
            if let next { try body(next, upright) }
        }
    }

    /// Times within a microsecond are equal (container clocks round).
    static let tolerance = 1e-6
}

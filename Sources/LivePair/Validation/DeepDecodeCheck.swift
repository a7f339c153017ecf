import LivePairCore
import LivePairFormats
import LivePairMedia

/// Deep validation: decodes the still's primary image and the movie's frame at the still-image
/// time (for motion photos, the embedded video's frame at the presentation timestamp) through the
/// C libraries, and reports what does not decode. Reads the files; never changes them.
struct DeepDecodeCheck: DeepValidation {
    /// Parser limits, also bounding decoded sizes.
    let limits: ParseLimits
    /// Longest side of the decoded movie frame.
    let frameDimension: Int
    /// Polled between stages.
    let cancellation: CancellationFlag

    /// `undecodable-photo` when the primary image of `photo` does not decode.
    func photoFindings(_ photo: ResourceIdentity) -> [Finding] {
        guard !cancellation.isCancelled else { return [] }
        do throws(MediaError) {
            try decodeStill(photo)
            return []
        } catch .cancelled {
            return []
        } catch {
            return [
                Finding(
                    .undecodablePhoto, path: photo.path,
                    message: "the image data of \(ValidationPlan.name(photo.path)) does not decode: \(error.description)")
            ]
        }
    }

    /// Decodes the primary image at reduced cost (JPEG at 1/8 scale in the DCT domain; HEIC tiles in full).
    func decodeStill(_ photo: ResourceIdentity) throws(MediaError) {
        switch photo.format {
        case .heic:
            let source: FileByteSource
            let recipe: HEIFImageRecipe
            do throws(FormatError) {
                source = try FileByteSource(path: photo.path)
                recipe = try HEIFFile(source: source, limits: limits).primaryImageRecipe(from: source)
            } catch {
                throw .invalidImage(reason: error.description)
            }
            _ = try HEICImageDecoder(limits: limits).decode(recipe, cancellation: cancellation)
        case .jpeg:
            // Only the image is read into memory: up to its end marker, found by a streaming walk
            // (bounded memory whatever the file's size; data after the image is never loaded).
            let bytes: [UInt8]
            do throws(FormatError) {
                let source = try FileByteSource(path: photo.path)
                // A motion photo's JPEG ends where its video starts.
                let end = min(photo.motionPhoto?.videoOffset ?? source.size, source.size)
                let structure = try JPEGSegmentReader(limits: limits).read(source)
                guard let scanStart = structure.startOfScanFileOffset else {
                    throw FormatError.invalid(context: "JPEG", reason: "no start of scan")
                }
                guard let imageEnd = try JPEGEndOfImage.find(in: source, scanStart: scanStart, end: end) else {
                    throw FormatError.invalid(context: "JPEG", reason: "the image data has no end marker (EOI)")
                }
                guard imageEnd <= UInt64(Int.max) else { throw FormatError.invalid(context: "JPEG", reason: "too large") }
                bytes = try source.readExactly(at: 0, count: Int(imageEnd), context: "JPEG image")
            } catch {
                throw .invalidImage(reason: error.description)
            }
            _ = try JPEGImageDecoder(limits: limits, treatsWarningsAsErrors: true).decode(bytes, scale: .eighth)
        default:
            return  // PNG, WebP and the rest are not Live Photo or motion photo stills.
        }
    }

    /// `undecodable-video` when the movie's frame at the still-image time does not decode.
    func videoFindings(_ movie: ResourceIdentity) -> [Finding] {
        guard !cancellation.isCancelled, movie.format.isMovie else { return [] }
        let time = movie.stillImageTime.flatMap { $0 >= 0 && $0 < (movie.duration ?? .infinity) ? $0 : nil }
            ?? (movie.duration ?? 0) / 2
        do throws(MediaError) {
            _ = try VideoFrameDecoder(limits: limits, maximumDimension: frameDimension)
                .decodeFrame(path: movie.path, at: time, cancellation: cancellation)
            return []
        } catch .cancelled {
            return []
        } catch {
            return [
                Finding(
                    .undecodableVideo, path: movie.path,
                    message: "the frame of \(ValidationPlan.name(movie.path)) at \(MessageFormatting.seconds(time, decimals: 3)) "
                        + "does not decode: \(error.description)")
            ]
        }
    }

    /// `undecodable-video` when a motion photo's embedded video does not decode at its presentation timestamp.
    func embeddedVideoFindings(_ photo: ResourceIdentity) -> [Finding] {
        guard !cancellation.isCancelled, let motion = photo.motionPhoto, let offset = motion.videoOffset,
            let length = motion.videoLength
        else { return [] }
        let duration = photo.duration ?? 0
        var time = motion.presentationTimestampUs.map { Double($0) / 1_000_000 } ?? duration / 2
        if time < 0 || (duration > 0 && time >= duration) { time = duration / 2 }
        do throws(MediaError) {
            _ = try VideoFrameDecoder(limits: limits, maximumDimension: frameDimension)
                .decodeFrame(path: photo.path, embeddedAt: offset, length: length, at: time, cancellation: cancellation)
            return []
        } catch .cancelled {
            return []
        } catch {
            return [
                Finding(
                    .undecodableVideo, path: photo.path,
                    message: "the embedded video of \(ValidationPlan.name(photo.path)) does not decode at "
                        + "\(MessageFormatting.seconds(time, decimals: 3)): \(error.description)")
            ]
        }
    }
}

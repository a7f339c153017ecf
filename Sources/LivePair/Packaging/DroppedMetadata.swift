import LivePairFormats

/// What packaging could not keep, said in its result (`PackagedLivePhoto.dropped`,
/// `PackagedMotionPhoto.dropped`) and by the CLI: nothing gives way silently.
enum DroppedMetadata {
    /// The still's maker note when it is another maker's: Apple's replaces it (Exif holds one
    /// maker note, and a Live Photo's identifier lives in Apple's). Empty when there is none, it is
    /// Apple's, or the still is not a HEIC or JPEG.
    static func makerNote(ofStillAt path: String, format: FileFormat, limits: ParseLimits) -> [String] {
        let tiff = StillExifReader.tiff(ofStillAt: path, format: format, limits: limits)
        guard let note = JPEGMakerNoteWriter.foreignMakerNote(in: tiff, limits: limits) else { return [] }
        let owner = note.make.map { "the \($0) maker note" } ?? "a non-Apple maker note"
        return ["\(owner) (\(note.byteCount) bytes), replaced by Apple's, which carries the identifier (Exif holds one maker note)"]
    }

    /// Samsung SEF records the still of a motion photo loses: the video's (`MotionPhoto_Data`).
    static func samsungRecords(_ names: [String]) -> [String] {
        names.map { "the Samsung SEF record \($0) (the embedded video's; the video is now the movie)" }
    }

    /// The bytes after a still's image that a motion photo does not keep (an earlier video, Samsung
    /// SEF records): the motion photo's video must end the file.
    static func trailer(byteCount: UInt64) -> [String] {
        byteCount == 0 ? [] : ["\(byteCount) bytes after the still's image (an earlier video or Samsung SEF records)"]
    }

    /// What the MP4 embedded in a motion photo does not keep of the movie: its non-AAC audio, which
    /// is re-encoded to AAC, and its `mebx` timed-metadata tracks (the still time goes to the XMP).
    /// A still-image-time track the input movie did not have (`hadStillImageTimeTrack` false: the
    /// stamped intermediate got one) is not the input's, so it is not listed.
    static func embeddedMovie(_ assembled: MotionPhotoMovieAssembler.Result, hadStillImageTimeTrack: Bool) -> [String] {
        var lines: [String] = []
        if let format = assembled.replacedAudioFormat {
            lines.append(
                "the movie's \(format.description.filter { $0 != " " }) audio, re-encoded to AAC in the embedded MP4 "
                    + "(Android's players do not read QuickTime sound in an MP4)")
        }
        for format in assembled.droppedAudioFormats {
            lines.append("a further \(format.description.filter { $0 != " " }) audio track (only the main one is re-encoded to AAC)")
        }
        for keys in assembled.droppedMetadataTracks
        where hadStillImageTimeTrack || keys != [QuickTimeMovie.stillImageTimeKey] {
            let named = keys.isEmpty ? "mebx" : "mebx: " + keys.joined(separator: ", ")
            let kept = keys.contains(QuickTimeMovie.stillImageTimeKey)
                ? "; the still-image time is kept in the XMP (LivePair:StillImageTime)" : ""
            lines.append("the movie's timed-metadata track (\(named)), which Android's readers skip\(kept)")
        }
        return lines
    }
}

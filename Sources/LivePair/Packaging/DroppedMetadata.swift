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
}

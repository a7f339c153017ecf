extension ValidationRule {
    /// Every rule, sorted by code.
    public static let catalog: [ValidationRule] = [
        ValidationRule(
            code: .missingContentIdentifier, severity: .error,
            title: "Live Photo half without a content identifier",
            hint: "give both halves the same identifier: run `livepair restamp PHOTO VIDEO`"),
        ValidationRule(
            code: .identifierMismatch, severity: .error,
            title: "Still and movie carry different identifiers",
            hint: "re-export both halves from Photos together, or run `livepair restamp PHOTO VIDEO` to give them one identifier"),
        ValidationRule(
            code: .conflictingContentIdentifiers, severity: .error,
            title: "Two identifiers in one file",
            hint: "run `livepair restamp PHOTO VIDEO`: it replaces every identifier in both halves"),
        ValidationRule(
            code: .xmpOnNonPrimaryItem, severity: .warning,
            title: "Motion-photo XMP on a non-primary item",
            hint: "run `livepair convert --to motion-photo PHOTO VIDEO` again: it gives the primary image its own XMP item"),
        ValidationRule(
            code: .malformedContentIdentifier, severity: .warning,
            title: "Content identifier is not a UUID",
            hint: "run `livepair restamp PHOTO VIDEO` to write a fresh UUID into both halves"),
        ValidationRule(
            code: .missingPairPhoto, severity: .warning,
            title: "Live Photo movie without its still",
            hint: "upload the still (.HEIC or .JPG) that was exported with this movie"),
        ValidationRule(
            code: .missingPairVideo, severity: .warning,
            title: "Live Photo still without its movie",
            hint: "upload the movie (.MOV) that was exported with this still; without it the photo is static"),
        ValidationRule(
            code: .ambiguousPair, severity: .warning,
            title: "More than one candidate for one identifier",
            hint: "keep one copy of each half, or check that the chosen pair is the right one",
            uploadEffect: .rejectsUpload),
        ValidationRule(
            code: .editDataWithoutPhoto, severity: .warning,
            title: "Edit data without its photo",
            hint: "keep the .AAE file beside the photo it was made on (same folder and name), or remove it"),
        ValidationRule(
            code: .editRenderWithoutOriginal, severity: .info,
            title: "Edited photo without its original",
            hint: "the edit is kept as it is; add the original (same folder, name without E, _edited or -adjusted) to keep both versions"),
        ValidationRule(
            code: .editMasterSizeMismatch, severity: .warning,
            title: "Edit made on a different image",
            hint: "the .AAE file belongs to another photo of the same name; keep each edit with the photo it was made on"),
        ValidationRule(
            code: .editUnknownFilter, severity: .warning,
            title: "Edit naming an unknown filter",
            hint: "the edit is kept; a render resumed from it leaves the filter out (LivePair's filters: invert, mono)"),
        ValidationRule(
            code: .duplicateFile, severity: .warning,
            title: "Duplicate of another file",
            hint: "remove the duplicate; importing it would create a second copy"),
        ValidationRule(
            code: .missingStillImageTime, severity: .error,
            title: "Movie has no still-image time",
            hint: "run `livepair restamp PHOTO VIDEO` to write the still-image-time track; Photos rejects pairs without it",
            uploadEffect: .acceptedWithFlag),
        ValidationRule(
            code: .stillImageTimeOutOfRange, severity: .error,
            title: "Still-image time outside the movie",
            hint: "run `livepair restamp PHOTO VIDEO` to move the still-image time onto a frame of the movie",
            uploadEffect: .acceptedWithFlag),
        ValidationRule(
            code: .stillImageTimeNotOnFrame, severity: .warning,
            title: "Still-image time between video frames",
            hint: "run `livepair restamp PHOTO VIDEO` to snap the still-image time to the nearest frame"),
        ValidationRule(
            code: .nonAppleMetadataLocation, severity: .warning,
            title: "Identifier only in moov/udta/meta",
            hint: "run `livepair restamp PHOTO VIDEO` to write the identifier into moov/meta, where Photos reads it"),
        ValidationRule(
            code: .extensionMismatch, severity: .warning,
            title: "Extension does not match the content",
            hint: "rename the file with the extension of its real format"),
        ValidationRule(
            code: .corruptFile, severity: .error,
            title: "File cannot be read completely",
            hint: "copy the file again from its source; it is truncated or damaged"),
        ValidationRule(
            code: .notMedia, severity: .error,
            title: "Not a photo or movie",
            hint: "nothing to do: only photos and movies are imported (sidecars, edit files and notes are skipped)"),
        ValidationRule(
            code: .sampleTableOutOfFile, severity: .error,
            title: "Movie's sample tables point outside the file",
            hint: "copy the movie again from its source; its index or media data is damaged or cut off"),
        ValidationRule(
            code: .missingVideoTrack, severity: .error,
            title: "Movie has no video track",
            hint: "copy the movie again from its source; its video track is missing or damaged"),
        ValidationRule(
            code: .truncatedImageData, severity: .error,
            title: "JPEG image data is cut off",
            hint: "copy the photo again from its source; its image data is truncated"),
        ValidationRule(
            code: .orientationMismatch, severity: .warning,
            title: "Still and movie are oriented differently",
            hint: "re-export both halves from Photos, or fix the movie's track matrix or the still's EXIF orientation"),
        ValidationRule(
            code: .aspectMismatch, severity: .info,
            title: "Still and movie have different aspect ratios",
            hint: "nothing to do if the still was cropped on purpose; otherwise check that these halves belong together"),
        ValidationRule(
            code: .captureTimeMismatch, severity: .warning,
            title: "Halves taken at different times, or a date is missing",
            hint: "check that these halves belong together; a movie without a date takes the still's date on import"),
        ValidationRule(
            code: .unsupportedVideoCodec, severity: .error,
            title: "Video codec is neither H.264 nor HEVC",
            hint: "transcode the movie to H.264 or HEVC, then run `livepair restamp PHOTO VIDEO`",
            uploadEffect: .acceptedWithFlag),
        ValidationRule(
            code: .hevcVideo, severity: .info,
            title: "HEVC video: most web browsers cannot play it",
            hint: "keep the HEVC original; serve an H.264 derivative to web browsers"),
        ValidationRule(
            code: .unusualDuration, severity: .info,
            title: "Movie is unusually short or long",
            hint: "nothing to do if the clip was trimmed on purpose; cameras record about 1.5 to 3 s"),
        ValidationRule(
            code: .motionPhotoVideoMissing, severity: .error,
            title: "Motion photo without its video",
            hint: "copy the original file from the phone again; this copy lost its embedded video",
            uploadEffect: .acceptedWithFlag),
        ValidationRule(
            code: .motionPhotoTimestampOutOfRange, severity: .warning,
            title: "Motion photo timestamp outside its video",
            hint: "the still's frame cannot be found in the video; viewers will start at the first frame"),
        ValidationRule(
            code: .undecodablePhoto, severity: .error,
            title: "Still image cannot be decoded", hint: "copy the still again from its source; its image data is damaged",
            requiresDeepValidation: true),
        ValidationRule(
            code: .undecodableVideo, severity: .error,
            title: "Movie frame at the still-image time cannot be decoded",
            hint: "copy the movie again from its source; its video data is damaged",
            requiresDeepValidation: true),
    ].sorted { $0.code < $1.code }
}

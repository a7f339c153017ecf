import LivePairFormats

/// Refuses damaged inputs before anything is written (no output folder, no staging): packaging
/// reads a file's structure, not its media, so a movie whose sample tables point past its end
/// (a truncated `mdat`, a `stsc` of 0xFFFFFFFF samples per chunk) would lose its audio or
/// frames on the way, and a movie whose still-image-time track cannot be read would get another
/// still time without a word. make, restamp and convert (both directions) call it on every input.
///
/// The checks are identification's cheap integrity checks (`ResourceIdentity.damageFindings`,
/// the codes `validate` reports: `sample-table-out-of-file`, `missing-video-track`,
/// `truncated-image-data`, `corrupt-file`; for a motion photo, its embedded video's tables too)
/// and, for movies, a still-image-time track whose time does not read
/// (`missing-still-image-time`, an error here) unless the caller chose the still time.
struct InputDamageCheck {
    let limits: ParseLimits

    /// Throws `PackagingError.damagedInput` when `identity` (of the file at `path`) is damaged.
    /// `stillImageTimeGiven` is true when the caller chose the still time (then an unreadable
    /// still-image-time track moves nothing).
    func check(_ identity: ResourceIdentity, path: String, stillImageTimeGiven: Bool = false) throws(PackagingError) {
        var findings = identity.damageFindings(path: path, name: LivePhotoPackager.fileName(of: path))
        if findings.isEmpty, !stillImageTimeGiven, identity.format == .quickTime || identity.format == .mp4,
            identity.stillImageTime == nil, hasStillImageTimeTrack(path)
        {
            findings.append(
                Finding(
                    code: .missingStillImageTime, severity: .error, path: path,
                    message: "\(LivePhotoPackager.fileName(of: path)) has a still-image-time track whose time cannot be "
                        + "read (its sample times or edit list are damaged): the still time would move to another frame",
                    hint: "choose the still's time with --still-time, or re-export the movie from the original"))
        }
        if !findings.isEmpty { throw .damagedInput(findings: findings) }
    }

    /// True when the movie at `path` has a timed-metadata track carrying the still-image time.
    private func hasStillImageTimeTrack(_ path: String) -> Bool {
        guard let source = try? FileByteSource(path: path),
            let movie = try? QuickTimeMovieParser(limits: limits).parse(source)
        else { return false }
        return movie.stillImageTimeTrack != nil
    }
}

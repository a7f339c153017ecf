import LivePairFormats

extension ResourceIdentifier {
    /// QuickTime and MP4: `moov` only, plus the few bytes of the still-image-time sample.
    func identifyMovie(_ source: any ByteSource, into identity: inout ResourceIdentity) {
        let parser = QuickTimeMovieParser(limits: limits)
        let movie: QuickTimeMovie
        do {
            movie = try parser.parse(source)
        } catch {
            identity.role = .video
            identity.issues.append(IdentityIssue(error))
            return
        }
        describe(movie, source: source, into: &identity)
        if let issue = truncationIssue(movie.topLevelBoxes, fileSize: source.size) { identity.issues.append(issue) }
        checkMovieIntegrity(movie, fileSize: source.size, into: &identity)
        if let found = movie.metadataValue(QuickTimeMovie.contentIdentifierKey),
            let identifier = found.value.stringValue.flatMap(ContentIdentifier.init(rawValue:))
        {
            identity.contentIdentifier = identifier
            identity.contentIdentifierLocation = found.location
            let values = (movie.metadata + movie.userDataMetadata).filter { $0.key == QuickTimeMovie.contentIdentifierKey }
            identity.conflictingContentIdentifiers = values.compactMap {
                $0.value.stringValue.flatMap(ContentIdentifier.init(rawValue:))
            }.filter { $0 != identifier }
        }
        identity.stillImageTime = parser.stillImageTime(of: movie, source: source)?.seconds
        if let time = identity.stillImageTime, let track = movie.videoTrack,
            let nearest = MovieFrameTimes.nearest(to: time, in: track.presentationTimes())
        {
            identity.stillImageFrame = StillImageFrame(time: nearest.time, distance: nearest.distance, interval: nearest.interval)
        }
        identity.make = movie.metadataValue("com.apple.quicktime.make")?.value.stringValue
        identity.model = movie.metadataValue("com.apple.quicktime.model")?.value.stringValue
        identity.role = identity.contentIdentifier != nil ? .livePhotoVideo : .video
    }

    /// Fills the values every movie has: size, orientation, duration, codecs, frame rate, date.
    func describe(_ movie: QuickTimeMovie, source: any ByteSource, into identity: inout ResourceIdentity) {
        identity.duration = movie.header.durationSeconds
        if let video = movie.videoTrack {
            identity.width = video.primaryDescription?.width ?? Int(video.header.width)
            identity.height = video.primaryDescription?.height ?? Int(video.header.height)
            identity.orientation = video.header.orientation
            identity.videoCodec = video.primaryDescription?.codecName
            identity.frameRate = video.sampleRate
        }
        identity.audioCodec = movie.audioTrack?.primaryDescription?.codecName
        if let text = movie.metadataValue("com.apple.quicktime.creationdate")?.value.stringValue {
            identity.captureDate = CaptureDate(text)
        }
        if identity.captureDate == nil {
            identity.captureDate = CaptureDate(secondsSince1904: movie.header.creationTime)
        }
        identity.location = movie.metadataValue("com.apple.quicktime.location.ISO6709")?.value.stringValue
            .flatMap(GPSCoordinate.init(iso6709:))
    }
}

extension CaptureDate {
    /// A UTC date from a QuickTime `mvhd` creation time (seconds since 1904-01-01); nil for 0,
    /// which writers use for "unknown" (Google Takeout's zero dates).
    init?(secondsSince1904 seconds: UInt64) {
        guard seconds > 0, seconds < 1 << 40 else { return nil }
        let days = Int64(seconds / 86_400) - 24_107  // 1904-01-01 to 1970-01-01
        let secondOfDay = Int(seconds % 86_400)
        let civil = CivilCalendar.date(daysSince1970: days)
        let (year, month, day) = (Int(civil.year), Int(civil.month), Int(civil.day))
        self.init(
            year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
            second: secondOfDay % 60, nanoseconds: nil, utcOffsetMinutes: 0)
    }
}

import LivePairFormats

extension CaptureDate {
    /// The wall-clock fields as seconds since 1970-01-01T00:00:00, ignoring any UTC offset.
    var pairingWallClockSeconds: Double {
        let days = CivilCalendar.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = days * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        return Double(seconds) + Double(nanoseconds ?? 0) / 1e9
    }

    /// How many seconds apart two capture dates are, for pairing: the difference of the instants
    /// when both carry a UTC offset. Otherwise the difference of the wall-clock times, where a
    /// difference within `tolerance` of a whole number of quarter hours up to 14 hours counts as a
    /// time-zone difference (one half written in local time, the other in UTC, as an old still's
    /// EXIF date and a movie's `mvhd` date) and is reduced by it. Validation judges dates the same way.
    static func pairingDistance(_ one: CaptureDate, _ other: CaptureDate, tolerance: Double) -> Double {
        let wallClock = one.pairingWallClockSeconds - other.pairingWallClockSeconds
        if let oneOffset = one.utcOffsetMinutes, let otherOffset = other.utcOffsetMinutes {
            return abs(wallClock - Double(oneOffset - otherOffset) * 60)
        }
        let difference = abs(wallClock)
        let quarterHours = (difference / 900).rounded()
        let remainder = abs(difference - quarterHours * 900)
        if quarterHours <= 56, remainder <= tolerance { return remainder }
        return difference
    }
}

extension AssetResource {
    /// Seconds between this resource's capture date and `other`'s (see `CaptureDate.pairingDistance`);
    /// nil when either is unknown.
    func captureSeconds(from other: AssetResource, tolerance: Double) -> Double? {
        guard let mine = identity.captureDate, let theirs = other.identity.captureDate else { return nil }
        return CaptureDate.pairingDistance(mine, theirs, tolerance: tolerance)
    }

    /// The stem normalised for comparisons (see `StemNormalizer`).
    var normalizedStem: String { StemNormalizer.normalize(stem) }
}

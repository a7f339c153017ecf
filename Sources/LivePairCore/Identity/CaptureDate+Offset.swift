public import LivePairFormats

extension CaptureDate {
    /// The greatest UTC offset a time zone uses, in quarter hours (14 hours).
    static let maximumOffsetQuarterHours = 56.0

    /// This date with its UTC offset filled in from `reference`, a date of the same moment that
    /// carries one (a Live Photo's movie: its `com.apple.quicktime.creationdate` with offset, or its
    /// `mvhd` date in UTC): the offset is the whole number of quarter hours, up to 14 hours, by which
    /// the wall clocks differ, when the rest of the difference is within `tolerance` seconds. An old
    /// still's EXIF date has no offset (`OffsetTimeOriginal` is read when present), and taking it
    /// as UTC would put the photo hours off. Unchanged when this date has an offset already, when
    /// `reference` has none, or when the two are not the same moment.
    public func fillingUTCOffset(from reference: CaptureDate?, tolerance: Double = 5) -> CaptureDate {
        guard utcOffsetMinutes == nil, let reference, let referenceOffset = reference.utcOffsetMinutes else { return self }
        // Wall-clock difference from the reference's UTC time.
        let difference = pairingWallClockSeconds - (reference.pairingWallClockSeconds - Double(referenceOffset) * 60)
        let quarterHours = (difference / 900).rounded()
        guard abs(quarterHours) <= Self.maximumOffsetQuarterHours, abs(difference - quarterHours * 900) <= tolerance
        else { return self }
        var filled = self
        filled.utcOffsetMinutes = Int(quarterHours) * 15
        return filled
    }

    /// Seconds from `other` to this date (positive when this one is later): the difference of the
    /// instants when both carry a UTC offset, otherwise of the wall clocks (a whole number of
    /// quarter hours up to 14 hours counts as a time-zone difference, as in pairing).
    public func seconds(since other: CaptureDate, tolerance: Double = 5) -> Double {
        let wallClock = pairingWallClockSeconds - other.pairingWallClockSeconds
        if let mine = utcOffsetMinutes, let theirs = other.utcOffsetMinutes {
            return wallClock - Double(mine - theirs) * 60
        }
        let quarterHours = (wallClock / 900).rounded()
        let remainder = wallClock - quarterHours * 900
        if abs(quarterHours) <= Self.maximumOffsetQuarterHours, abs(remainder) <= tolerance { return remainder }
        return wallClock
    }
}

public import Foundation
public import LivePairFormats

extension CaptureDate {
    /// The moment, taking the recorded UTC offset into account (UTC when no offset was recorded).
    public var date: Date? {
        var calendar = Calendar(identifier: .gregorian)
        guard let zone = TimeZone(secondsFromGMT: (utcOffsetMinutes ?? 0) * 60) else { return nil }
        calendar.timeZone = zone
        let components = DateComponents(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanoseconds ?? 0)
        return calendar.date(from: components)
    }

    /// `date` as a capture date in UTC (offset 0), to the millisecond.
    public init(utc date: Date) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let seconds = date.timeIntervalSince1970.rounded(.down)
        let milliseconds = Int(((date.timeIntervalSince1970 - seconds) * 1000).rounded())
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: seconds))
        self.init(
            year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
            minute: parts.minute ?? 0, second: parts.second ?? 0, nanoseconds: min(milliseconds, 999) * 1_000_000,
            utcOffsetMinutes: 0)
    }
}

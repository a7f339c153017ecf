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
}

/// A capture date and time as written in the file: local wall-clock fields, optional fractional
/// seconds, optional UTC offset. No calendar arithmetic or time-zone lookup is done.
public struct CaptureDate: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Four-digit year.
    public var year: Int
    /// Month, 1-12.
    public var month: Int
    /// Day of month, 1-31.
    public var day: Int
    /// Hour, 0-23.
    public var hour: Int
    /// Minute, 0-59.
    public var minute: Int
    /// Second, 0-60.
    public var second: Int
    /// Fractional second in nanoseconds, when known.
    public var nanoseconds: Int?
    /// Offset from UTC in minutes (east positive), when known.
    public var utcOffsetMinutes: Int?

    /// Memberwise initializer.
    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanoseconds: Int? = nil,
        utcOffsetMinutes: Int? = nil
    ) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanoseconds = nanoseconds
        self.utcOffsetMinutes = utcOffsetMinutes
    }

    /// Parses EXIF "YYYY:MM:DD HH:MM:SS" or ISO 8601 "YYYY-MM-DDTHH:MM:SS[.fff][Z|+hh:mm|+hhmm|+hh]".
    /// `subsecond` is an EXIF SubSecTime string (digits of a decimal fraction) and `offset` an EXIF
    /// OffsetTime string ("+02:00"); both apply only when the text itself lacks them.
    /// Returns nil for blank or all-zero dates ("0000:00:00 00:00:00") and malformed text.
    public init?(_ text: String, subsecond: String? = nil, offset: String? = nil) {
        let bytes = Array(text.utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0 { end -= 1 }
        guard end - start >= 19 else { return nil }
        var cursor = start

        func number(_ width: Int) -> Int? {
            guard end - cursor >= width else { return nil }
            var value = 0
            for index in cursor..<cursor + width {
                let byte = bytes[index]
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            cursor += width
            return value
        }
        func expect(_ allowed: [UInt8]) -> Bool {
            guard cursor < end, allowed.contains(bytes[cursor]) else { return false }
            cursor += 1
            return true
        }

        guard let year = number(4), expect([0x3A, 0x2D]), let month = number(2), expect([0x3A, 0x2D]),
            let day = number(2), expect([0x20, 0x54, 0x74]), let hour = number(2), expect([0x3A]),
            let minute = number(2), expect([0x3A]), let second = number(2)
        else { return nil }
        guard year != 0 || month != 0 || day != 0 else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else {
            return nil
        }
        var nanoseconds: Int?
        if cursor < end, bytes[cursor] == 0x2E || bytes[cursor] == 0x2C {
            cursor += 1
            let digitsStart = cursor
            while cursor < end, bytes[cursor] >= 0x30, bytes[cursor] <= 0x39 { cursor += 1 }
            guard cursor > digitsStart else { return nil }
            nanoseconds = Self.nanoseconds(fromDigits: bytes[digitsStart..<cursor])
        }
        var utcOffset: Int?
        if cursor < end {
            guard let parsed = Self.parseOffset(bytes[cursor..<end]) else { return nil }
            utcOffset = parsed
        }
        if nanoseconds == nil, let subsecond {
            let digits = Array(subsecond.utf8).filter { $0 >= 0x30 && $0 <= 0x39 }
            if !digits.isEmpty { nanoseconds = Self.nanoseconds(fromDigits: digits[...]) }
        }
        if utcOffset == nil, let offset {
            let offsetBytes = Array(offset.utf8).filter { $0 != 0x20 && $0 != 0 }
            if !offsetBytes.isEmpty { utcOffset = Self.parseOffset(offsetBytes[...]) }
        }
        self.init(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            nanoseconds: nanoseconds, utcOffsetMinutes: utcOffset)
    }

    private static func nanoseconds(fromDigits digits: ArraySlice<UInt8>) -> Int {
        var value = 0
        var used = 0
        for digit in digits where used < 9 {
            value = value * 10 + Int(digit - 0x30)
            used += 1
        }
        while used < 9 {
            value *= 10
            used += 1
        }
        return value
    }

    /// Parses "Z", "+hh:mm", "+hhmm" or "+hh" into minutes east of UTC.
    private static func parseOffset(_ text: ArraySlice<UInt8>) -> Int? {
        let bytes = Array(text)
        guard let sign = bytes.first else { return nil }
        if bytes.count == 1, sign == 0x5A || sign == 0x7A { return 0 }
        guard sign == 0x2B || sign == 0x2D else { return nil }
        let digits = bytes.dropFirst().filter { $0 != 0x3A }
        guard digits.count == 2 || digits.count == 4, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return nil
        }
        let values = digits.map { Int($0 - 0x30) }
        let hours = values[0] * 10 + values[1]
        let minutes = values.count == 4 ? values[2] * 10 + values[3] : 0
        guard hours <= 18, minutes <= 59 else { return nil }
        let total = hours * 60 + minutes
        return sign == 0x2D ? -total : total
    }

    /// ISO 8601 text, such as "2023-10-05T14:27:43.123+02:00"; the fraction only when known
    /// (trailing zeros dropped), the offset only when known ("Z" for zero).
    public var iso8601: String {
        var text = Self.pad(year, 4) + "-" + Self.pad(month, 2) + "-" + Self.pad(day, 2) + "T"
        text += Self.pad(hour, 2) + ":" + Self.pad(minute, 2) + ":" + Self.pad(second, 2)
        if let nanoseconds {
            var digits = Self.pad(nanoseconds, 9)
            while digits.count > 1, digits.hasSuffix("0") { digits.removeLast() }
            text += "." + digits
        }
        if let utcOffsetMinutes {
            if utcOffsetMinutes == 0 {
                text += "Z"
            } else {
                let magnitude = abs(utcOffsetMinutes)
                text += (utcOffsetMinutes < 0 ? "-" : "+") + Self.pad(magnitude / 60, 2) + ":" + Self.pad(magnitude % 60, 2)
            }
        }
        return text
    }

    /// The ISO 8601 text.
    public var description: String { iso8601 }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
    }
}

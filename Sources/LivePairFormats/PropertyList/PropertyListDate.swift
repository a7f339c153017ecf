/// A property-list date: seconds since 2001-01-01 00:00:00 UTC (Apple's reference date), as
/// binary plists store it; XML plists write it as ISO 8601 in UTC (`2024-06-01T22:19:30Z`).
public struct PropertyListDate: Sendable, Equatable, Hashable, Comparable {
    /// Seconds since 2001-01-01 00:00:00 UTC.
    public var secondsSinceReferenceDate: Double

    /// Seconds between 1970-01-01 and 2001-01-01.
    public static let referenceDateSince1970: Double = 978_307_200

    /// A date `secondsSinceReferenceDate` after 2001-01-01 00:00:00 UTC.
    public init(secondsSinceReferenceDate: Double) {
        self.secondsSinceReferenceDate = secondsSinceReferenceDate
    }

    /// A date `seconds` after 1970-01-01 00:00:00 UTC.
    public init(secondsSince1970 seconds: Double) {
        self.secondsSinceReferenceDate = seconds - Self.referenceDateSince1970
    }

    /// Seconds since 1970-01-01 00:00:00 UTC.
    public var secondsSince1970: Double { secondsSinceReferenceDate + Self.referenceDateSince1970 }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` (fractional seconds accepted); nil for anything else.
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int(bytes[index] - 0x30)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var fraction = 0.0
        if bytes.count > 20 {
            guard bytes[19] == UInt8(ascii: "."), bytes.count > 21,
                let value = Double("0" + String(decoding: bytes[19..<(bytes.count - 1)], as: UTF8.self))
            else { return nil }
            fraction = value
        } else if bytes[19] != UInt8(ascii: "Z") {
            return nil
        }
        let days = CivilCalendar.daysSince1970(year: Int64(year), month: Int64(month), day: Int64(day))
        let seconds = Double(days * 86_400 + Int64(hour * 3_600 + minute * 60 + second)) + fraction
        self.init(secondsSince1970: seconds)
    }

    /// The date as an XML plist writes it: `YYYY-MM-DDTHH:MM:SSZ`, whole seconds (rounded down).
    public var iso8601: String {
        let total = Int64(secondsSince1970.rounded(.down))
        var days = total / 86_400
        var seconds = total % 86_400
        if seconds < 0 {
            seconds += 86_400
            days -= 1
        }
        let (year, month, day) = CivilCalendar.date(daysSince1970: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year)
        let paddedYear = String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
        return "\(paddedYear)-\(two(month))-\(two(day))T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))Z"
    }

    /// Orders dates by time.
    public static func < (lhs: PropertyListDate, rhs: PropertyListDate) -> Bool {
        lhs.secondsSinceReferenceDate < rhs.secondsSinceReferenceDate
    }
}

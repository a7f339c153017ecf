public import LivePairFormats

/// One row of an iCloud Photos export's `Photo Details*.csv`: `imgName, fileChecksum, favorite,
/// hidden, deleted, originalCreationDate, viewCount, importDate` (columns found by their header).
public struct ICloudPhotoDetails: Sendable, Equatable {
    /// The file's name in `Photos/`.
    public var name: String
    /// `favorite` is `yes`.
    public var isFavorite: Bool
    /// `hidden` is `yes`.
    public var isHidden: Bool
    /// `deleted` is `yes` (Recently Deleted): not imported, reported.
    public var isDeleted: Bool
    /// `originalCreationDate`, to the minute, in the zone it names.
    public var creationDate: CaptureDate?

    /// The rows of a `Photo Details*.csv` file (its first row is the header); rows without a name
    /// are left out.
    public static func rows(_ table: [[String]]) -> [ICloudPhotoDetails] {
        guard let header = table.first?.map({ $0.trimmingSpaces.lowercased() }) else { return [] }
        func column(_ name: String) -> Int? { header.firstIndex(of: name.lowercased()) }
        guard let nameColumn = column("imgName") else { return [] }
        let favorite = column("favorite"), hidden = column("hidden"), deleted = column("deleted")
        let created = column("originalCreationDate")
        return table.dropFirst().compactMap { fields in
            let row = fields.count > header.count ? rejoiningDates(fields) : fields
            func value(_ index: Int?) -> String? { index.flatMap { $0 < row.count ? row[$0].trimmingSpaces : nil } }
            guard let name = value(nameColumn), !name.isEmpty else { return nil }
            return ICloudPhotoDetails(
                name: name, isFavorite: value(favorite)?.lowercased() == "yes", isHidden: value(hidden)?.lowercased() == "yes",
                isDeleted: value(deleted)?.lowercased() == "yes", creationDate: value(created).flatMap(Self.date))
        }
    }

    /// `fields` with each date Apple wrote unquoted (`Friday October 06,2023 12:11 PM GMT`, which
    /// its comma splits in two) joined again: a field ending in a month and a day number followed by
    /// one starting with a four-digit year.
    static func rejoiningDates(_ fields: [String]) -> [String] {
        var joined: [String] = []
        for field in fields {
            if let last = joined.last, endsWithMonthAndDay(last), field.prefix(4).allSatisfy({ ("0"..."9").contains($0) }),
                field.count > 4, field.dropFirst(4).first == " "
            {
                joined[joined.count - 1] = last + "," + field
            } else {
                joined.append(field)
            }
        }
        return joined
    }

    private static func endsWithMonthAndDay(_ text: String) -> Bool {
        let words = text.split(separator: " ")
        guard words.count >= 2, let day = Int(words[words.count - 1]), (1...31).contains(day) else { return false }
        return months.contains(words[words.count - 2].lowercased())
    }

    private static let months = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]

    /// `Friday October 06,2023 12:11 PM GMT` (the weekday optional; `GMT`, `UTC`, or `GMT+02:00`).
    public static func date(_ text: String) -> CaptureDate? {
        var words = text.split(whereSeparator: { $0 == " " || $0 == "," }).map { String($0).lowercased() }
        if let first = words.first, first.hasSuffix("day") { words.removeFirst() }
        guard words.count >= 5, let month = months.firstIndex(of: words[0]).map({ $0 + 1 }), let day = Int(words[1]),
            let year = Int(words[2]), (1...9999).contains(year), (1...31).contains(day)
        else { return nil }
        let clock = words[3].split(separator: ":")
        guard clock.count == 2, var hour = Int(clock[0]), let minute = Int(clock[1]), (1...12).contains(hour), (0...59).contains(minute)
        else { return nil }
        switch words[4] {
        case "am": if hour == 12 { hour = 0 }
        case "pm": if hour != 12 { hour += 12 }
        default: return nil
        }
        var offset = 0
        if words.count > 5 {
            let zone = words[5]
            guard zone.hasPrefix("gmt") || zone.hasPrefix("utc") else { return nil }
            let rest = zone.dropFirst(3)
            if !rest.isEmpty {
                let sign = rest.first == "-" ? -1 : 1
                let parts = rest.dropFirst().split(separator: ":")
                guard let hours = parts.first.flatMap({ Int($0) }), hours <= 14 else { return nil }
                offset = sign * (hours * 60 + (parts.count > 1 ? Int(parts[1]) ?? 0 : 0))
            }
        }
        return CaptureDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: 0, nanoseconds: nil, utcOffsetMinutes: offset)
    }
}

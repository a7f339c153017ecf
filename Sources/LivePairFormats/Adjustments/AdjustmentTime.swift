/// A time as Core Media's `CMTime` writes itself into edit recipes:
/// `{"value": 1740, "timescale": 600, "flags": 1, "epoch": 0}` is 2.9 s.
public struct AdjustmentTime: Sendable, Equatable, Hashable {
    /// The count of `1/timescale` units.
    public var value: Int64
    /// Units per second.
    public var timescale: Int32
    /// `CMTimeFlags`: bit 0 valid, bit 1 has been rounded, bits 2-4 +infinity, -infinity, indefinite.
    public var flags: UInt32
    /// Distinguishes otherwise equal times of different loops (0 in edits).
    public var epoch: Int64

    /// A valid time of `value / timescale` seconds.
    public init(value: Int64, timescale: Int32, flags: UInt32 = 1, epoch: Int64 = 0) {
        self.value = value
        self.timescale = timescale
        self.flags = flags
        self.epoch = epoch
    }

    /// Whether the time is a number of seconds: the valid flag is set, no infinity or indefinite
    /// flag is, and the timescale is positive.
    public var isNumeric: Bool { flags & 1 == 1 && flags & 0x1C == 0 && timescale > 0 }

    /// The time in seconds, or nil when it is not numeric.
    public var seconds: Double? { isNumeric ? Double(value) / Double(timescale) : nil }

    /// Reads a `CMTime` dictionary; nil when `value` or `timescale` is missing or out of range.
    public init?(json: JSONElement?) {
        guard let json, let value = json["value"]?.integerValue, let timescale = json["timescale"]?.integerValue,
            let narrow = Int32(exactly: timescale)
        else { return nil }
        let flags = json["flags"]?.integerValue ?? 1
        guard let flagBits = UInt32(exactly: flags) else { return nil }
        self.init(value: value, timescale: narrow, flags: flagBits, epoch: json["epoch"]?.integerValue ?? 0)
    }

    /// The `CMTime` dictionary, in the member order Photos writes.
    public var json: JSONElement {
        .object([
            JSONMember("flags", .integer(Int64(flags))), JSONMember("value", .integer(value)),
            JSONMember("epoch", .integer(epoch)), JSONMember("timescale", .integer(Int64(timescale))),
        ])
    }
}

/// A time range of a movie, as a trim edit stores it (`startTime`, `endTime`).
public struct AdjustmentTimeRange: Sendable, Equatable, Hashable {
    /// Where the kept part starts.
    public var start: AdjustmentTime
    /// Where the kept part ends.
    public var end: AdjustmentTime

    /// Memberwise initializer.
    public init(start: AdjustmentTime, end: AdjustmentTime) {
        self.start = start
        self.end = end
    }
}

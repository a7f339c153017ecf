/// The exact Apple still-image time LivePair writes into the XMP of a motion photo it makes from a
/// Live Photo (`LivePair:StillImageTime`, an XMP Rational `ticks/timescale` on the embedded
/// movie's timescale, for example `288/600` for 0.48 s): the embedded MP4 has no still-image-time
/// track (Android's readers do not read it), and `MotionPhotoPresentationTimestampUs` holds the
/// presentation time of the still's frame, which Apple's time often lies between. Converting the
/// motion photo back to a Live Photo writes the still-image-time track at this time again.
public struct LivePairStillImageTime: Sendable, Equatable {
    /// The XMP namespace (an identifier, not a web address) and its usual prefix.
    public static let namespaceURI = "http://ns.livepair.dev/motion-photo/1.0/"
    /// The prefix LivePair writes.
    public static let prefix = "LivePair"
    /// The property's local name.
    public static let localName = "StillImageTime"

    /// The time in ticks of `timescale`.
    public let ticks: UInt64
    /// Ticks per second (the movie's `mvhd` timescale).
    public let timescale: UInt32

    /// A time of `ticks` at `timescale` ticks per second (`timescale` > 0).
    public init?(ticks: UInt64, timescale: UInt32) {
        guard timescale > 0, ticks < UInt64(1) << 53 else { return nil }
        self.ticks = ticks
        self.timescale = timescale
    }

    /// The time in seconds.
    public var seconds: Double { Double(ticks) / Double(timescale) }

    /// The XMP value: `ticks/timescale`.
    public var xmpValue: String { "\(ticks)/\(timescale)" }

    /// Parses an XMP Rational `ticks/timescale`; nil when it is not one (negative, zero timescale,
    /// anything else).
    public init?(xmpValue: String) {
        let parts = xmpValue.trimmingXMLWhitespace.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) }),
            let ticks = UInt64(parts[0]), let timescale = UInt32(parts[1])
        else { return nil }
        self.init(ticks: ticks, timescale: timescale)
    }

    /// The time a parsed packet holds, when it holds a valid one.
    public init?(_ xmp: MotionPhotoXMP) {
        guard let value = xmp.property(Self.namespaceURI, Self.localName) else { return nil }
        self.init(xmpValue: value)
    }
}

extension Character {
    /// True for the ASCII digits 0-9.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

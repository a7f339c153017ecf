/// The bounds an archive is read within: a hostile part (absurd sizes, a zip bomb, millions of
/// members) ends in an `ArchiveError`, never in unbounded memory or an endless read.
public struct ArchiveLimits: Sendable, Equatable {
    /// Members up to this size are kept whole in memory while they are looked at.
    public var wholeMemberBytes: Int
    /// Of a larger member, this many first bytes and this many last bytes are kept (its headers:
    /// a movie's `moov` at either end); the bytes between are read and dropped.
    public var windowBytes: Int
    /// The most bytes one member may expand to.
    public var maximumMemberBytes: UInt64
    /// The most bytes all members together may expand to.
    public var maximumExpandedBytes: UInt64
    /// The largest ratio of expanded bytes to archive bytes read, checked once more than
    /// `ratioGraceBytes` have expanded (a DEFLATE stream expands at most about 1032 times).
    public var maximumExpansionRatio: UInt64
    /// Expanded bytes allowed before the ratio is checked (small highly compressible members are fine).
    public var ratioGraceBytes: UInt64
    /// The most members (entries of any kind) one archive may hold.
    public var maximumMembers: Int
    /// The longest member name, in bytes.
    public var maximumNameBytes: Int

    /// The defaults: members up to 64 MiB whole, 16 MiB windows, 64 GiB a member, 1 TiB an
    /// archive, a ratio of 1,100 after 64 MiB, 1,000,000 members, names up to 4,096 bytes.
    public static let `default` = ArchiveLimits(
        wholeMemberBytes: 64 << 20, windowBytes: 16 << 20, maximumMemberBytes: 64 << 30,
        maximumExpandedBytes: 1 << 40, maximumExpansionRatio: 1100, ratioGraceBytes: 64 << 20,
        maximumMembers: 1_000_000, maximumNameBytes: 4096)

    /// Limits with every value given.
    public init(
        wholeMemberBytes: Int, windowBytes: Int, maximumMemberBytes: UInt64, maximumExpandedBytes: UInt64,
        maximumExpansionRatio: UInt64, ratioGraceBytes: UInt64, maximumMembers: Int, maximumNameBytes: Int
    ) {
        self.wholeMemberBytes = wholeMemberBytes
        self.windowBytes = windowBytes
        self.maximumMemberBytes = maximumMemberBytes
        self.maximumExpandedBytes = maximumExpandedBytes
        self.maximumExpansionRatio = maximumExpansionRatio
        self.ratioGraceBytes = ratioGraceBytes
        self.maximumMembers = maximumMembers
        self.maximumNameBytes = maximumNameBytes
    }
}

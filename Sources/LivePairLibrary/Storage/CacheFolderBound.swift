#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats
import Synchronization

/// A folder of cached copies kept under a byte limit, least recently used first: what keeps a
/// node's local copies of S3 objects (resources fetched for decoders, derivatives another node
/// made) from growing until the disk is full (and the node's uploads then fail for want of space).
///
/// - Each addition adds its size to a running total; when the total passes `limit`, the folder is
///   read again (other processes sharing it are counted too) and the least recently used copies
///   are removed, oldest first, until it holds at most nine tenths of the limit.
/// - A copy counts as used when it is added or handed out again (`noteUse` sets its modification
///   time to now), and a copy used within `grace` seconds is never removed, so a path just handed
///   to a reader is still there when the reader opens it. A reader that has opened a copy keeps
///   reading it after it is removed (the name goes, the open file stays).
/// - Only the entries `isCopy` accepts are counted and removed; entries `isTemporary` accepts that
///   were last written more than an hour ago are what a killed process left, and are removed too.
///   Nothing else in the folder is touched.
public final class CacheFolderBound: Sendable {
    /// Seconds after its last use during which a copy is never removed.
    public static let grace: time_t = 60
    /// Age after which a temporary file is taken for what a killed process left.
    public static let abandonedTemporaryAge: time_t = 3_600
    /// The limit when `LIVEPAIR_S3_CACHE_MAX` does not give one: 4 GiB.
    public static let defaultLimitBytes: UInt64 = 4 << 30

    /// The folder.
    public let directory: String
    /// The bytes of copies above which the least recently used are removed.
    public let limit: UInt64
    private let isCopy: @Sendable (String) -> Bool
    private let isTemporary: @Sendable (String) -> Bool
    /// The bytes the folder held at its last reading plus what was added since; nil until the
    /// first addition reads the folder.
    private let usage = Mutex<UInt64?>(nil)
    /// Whether a trim is running.
    private let trimming = Mutex(false)

    /// A bound of `limit` bytes on the copies in `directory` whose names `isCopy` accepts;
    /// `isTemporary` names the temporary files of additions in progress.
    public init(
        directory: String, limit: UInt64, isCopy: @escaping @Sendable (String) -> Bool,
        isTemporary: @escaping @Sendable (String) -> Bool = { _ in false }
    ) {
        self.directory = directory
        self.limit = limit
        self.isCopy = isCopy
        self.isTemporary = isTemporary
    }

    /// The limit from `variable` (default `LIVEPAIR_S3_CACHE_MAX`; `LIVEPAIR_DERIVATIVE_CACHE_MAX`
    /// for serve's derivatives): bytes, or a number with a `K`, `M`, `G` or `T` suffix (powers of
    /// 1024; `B` or `iB` may follow), e.g. `500M`, `20G`. Unset, empty or not a size:
    /// `defaultLimitBytes`.
    public static func limitFromEnvironment(_ variable: String = "LIVEPAIR_S3_CACHE_MAX") -> UInt64 {
        guard let value = getenv(variable) else { return defaultLimitBytes }
        return parseByteSize(String(cString: value)) ?? defaultLimitBytes
    }

    /// `text` as a number of bytes (see `limitFromEnvironment()`), nil when it is not one.
    public static func parseByteSize(_ text: String) -> UInt64? {
        let words = text.uppercased().split(separator: " ")
        guard words.count == 1 else { return nil }
        var rest = words[0]
        for unit in ["IB", "B"] where rest.hasSuffix(unit) && rest.count > unit.count {
            rest = rest.dropLast(unit.count)
            break
        }
        let shifts: [Character: UInt64] = ["K": 10, "M": 20, "G": 30, "T": 40]
        var shift: UInt64 = 0
        if let last = rest.last, let unit = shifts[last] {
            shift = unit
            rest = rest.dropLast()
        }
        guard !rest.isEmpty, rest.allSatisfy({ $0.isASCII && $0.isNumber }), let number = UInt64(rest),
            number <= UInt64.max >> shift
        else { return nil }
        return number << shift
    }

    /// Marks the copy at `path` as used now (its modification time).
    public func noteUse(_ path: String) {
        _ = FileSystemPath.withCString(path) { utimensat(AT_FDCWD, $0, nil, 0) }
    }

    /// Adds `size` bytes just put in the folder to the running total and trims the folder when it
    /// passes the limit (the first addition of a process reads the folder to learn the total).
    public func noteAddition(_ size: UInt64) {
        let total: UInt64? = usage.withLock { usage in
            guard let known = usage else { return nil }
            usage = known + size
            return known + size
        }
        if let total, total <= limit { return }
        trim()
    }

    /// Reads the folder and removes copies, least recently used first, until it holds at most
    /// nine tenths of `limit`, keeping every copy used within `grace` seconds of `now`; removes
    /// abandoned temporary files. Returns the bytes the copies hold afterwards. One trim at a time:
    /// a caller that finds one running returns at once (with the last total).
    @discardableResult
    public func trim(now: time_t = time(nil)) -> UInt64 {
        guard trimming.withLock({ running in
            if running { return false }
            running = true
            return true
        }) else { return usage.withLock { $0 ?? 0 } }
        defer { trimming.withLock { $0 = false } }
        var copies: [(path: String, size: UInt64, used: time_t)] = []
        var total: UInt64 = 0
        for name in FileSystemPath.names(in: directory) ?? [] {
            let path = "\(directory)/\(name)"
            if isCopy(name) {
                guard let info = POSIXFile.status(path), POSIXFile.isRegular(info) else { continue }
                copies.append((path, UInt64(info.st_size), info.st_mtim.tv_sec))
                total += UInt64(info.st_size)
            } else if isTemporary(name), let info = POSIXFile.status(path), POSIXFile.isRegular(info),
                now - info.st_mtim.tv_sec > Self.abandonedTemporaryAge
            {
                _ = FileSystemPath.unlink(path)
            }
        }
        if total > limit {
            let target = limit / 10 * 9
            for copy in copies.sorted(by: { $0.used < $1.used }) where total > target {
                guard now - copy.used > Self.grace else { break }
                if FileSystemPath.unlink(copy.path) == 0 { total -= copy.size }
            }
        }
        usage.withLock { $0 = total }
        return total
    }
}

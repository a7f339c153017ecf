#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LivePairFormats
import Synchronization

/// The bound on the local cache of fetched copies (`localPath(for:)`): a server that delivers and
/// decodes resources from S3 fetches every resource it is asked for, so without a bound its
/// cache would grow until the disk is full (and the node's uploads then fail for want of space).
///
/// - Each fetch adds its size to the store's running total; when the total passes `cacheLimit`,
///   the cache directory is read again (other processes sharing it are counted too) and the
///   least recently used copies are removed, oldest first, until it holds at most nine tenths of
///   the limit.
/// - A copy counts as used when it is fetched or handed out again (`localPath(for:)` and
///   `localPathIfPresent(for:)` set its modification time to now), and a copy used within
///   `cacheEvictionGrace` seconds is never removed, so a path just handed to a reader is still
///   there when the reader opens it. A reader that has opened a copy keeps reading it after it is
///   removed (the name goes, the open file stays).
/// - Temporary files of fetches (`DIGEST.PID-RANDOM.tmp`) older than an hour are what a killed
///   process left: they are removed too. Nothing else in the directory is touched (a server keeps
///   its own folders beside the copies).
extension S3ResourceStore {
    /// Seconds after its last use during which a cached copy is never removed.
    public static let cacheEvictionGrace: time_t = 60
    /// Age after which a fetch's temporary file is taken for what a killed process left.
    static let abandonedFetchAge: time_t = 3_600
    /// The cache limit when `LIVEPAIR_S3_CACHE_MAX` does not give one: 4 GiB.
    public static let defaultCacheLimitBytes: UInt64 = 4 << 30

    /// The cache limit from `LIVEPAIR_S3_CACHE_MAX`: bytes, or a number with a `K`, `M`, `G` or `T`
    /// suffix (powers of 1024; `B` or `iB` may follow), e.g. `500M`, `20G`. Unset, empty or not a
    /// size: `defaultCacheLimitBytes`.
    public static func defaultCacheLimit() -> UInt64 {
        guard let value = getenv("LIVEPAIR_S3_CACHE_MAX") else { return defaultCacheLimitBytes }
        return parseByteSize(String(cString: value)) ?? defaultCacheLimitBytes
    }

    /// `text` as a number of bytes (see `defaultCacheLimit()`), nil when it is not one.
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

    /// Marks the cached copy at `path` as used now (its modification time).
    func noteCacheUse(_ path: String) {
        _ = FileSystemPath.withCString(path) { utimensat(AT_FDCWD, $0, nil, 0) }
    }

    /// Adds `size` fetched bytes to the running total and trims the cache when it passes the limit
    /// (the first fetch of a process reads the directory to learn the total).
    func noteCacheAddition(_ size: UInt64) {
        let total: UInt64? = cacheUsage.withLock { usage in
            guard let known = usage else { return nil }
            usage = known + size
            return known + size
        }
        if let total, total <= cacheLimit { return }
        trimCache()
    }

    /// Reads the cache directory and removes copies, least recently used first, until it holds at
    /// most nine tenths of `cacheLimit`, keeping every copy used within `cacheEvictionGrace`;
    /// removes abandoned fetch files. Returns the bytes the cache holds afterwards. One trim at a
    /// time per store: a caller that finds one running returns at once (with the last total).
    @discardableResult
    public func trimCache(now: time_t = time(nil)) -> UInt64 {
        guard cacheTrimming.withLock({ running in
            if running { return false }
            running = true
            return true
        }) else { return cacheUsage.withLock { $0 ?? 0 } }
        defer { cacheTrimming.withLock { $0 = false } }
        var copies: [(path: String, size: UInt64, used: time_t)] = []
        var total: UInt64 = 0
        for name in FileSystemPath.names(in: cacheDirectory) ?? [] {
            let path = "\(cacheDirectory)/\(name)"
            if Self.isCopyName(name) {
                guard let info = POSIXFile.status(path), POSIXFile.isRegular(info) else { continue }
                copies.append((path, UInt64(info.st_size), info.st_mtim.tv_sec))
                total += UInt64(info.st_size)
            } else if name.hasSuffix(".tmp"), Self.isCopyName(String(name.prefix(64))),
                let info = POSIXFile.status(path), POSIXFile.isRegular(info), now - info.st_mtim.tv_sec > Self.abandonedFetchAge
            {
                _ = FileSystemPath.unlink(path)
            }
        }
        if total > cacheLimit {
            let target = cacheLimit / 10 * 9
            for copy in copies.sorted(by: { $0.used < $1.used }) where total > target {
                guard now - copy.used > Self.cacheEvictionGrace else { break }
                if FileSystemPath.unlink(copy.path) == 0 { total -= copy.size }
            }
        }
        cacheUsage.withLock { $0 = total }
        return total
    }

    /// Whether `name` is a cached copy's name: 64 lowercase hexadecimal digits.
    static func isCopyName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

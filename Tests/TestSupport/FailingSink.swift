import LivePairFormats

/// A byte sink that passes bytes through to `base` until `limit` bytes were written, writes the
/// part that still fits, then throws: a write interrupted half-way (disk full, I/O error).
public final class FailingSink: ByteSink {
    /// The sink written to.
    public let base: any ByteSink
    /// Bytes accepted before the failure.
    public let limit: UInt64

    /// Fails once more than `limit` bytes would have been written to `base`.
    public init(_ base: any ByteSink, failAfter limit: UInt64) {
        self.base = base
        self.limit = limit
    }

    /// Bytes written to `base`.
    public var bytesWritten: UInt64 { base.bytesWritten }

    /// Writes `bytes`, or the part below the limit and then throws `FormatError.io`.
    public func write(_ bytes: ArraySlice<UInt8>) throws(FormatError) {
        if base.bytesWritten + UInt64(bytes.count) > limit {
            let allowed = Int(limit - min(limit, base.bytesWritten))
            try base.write(bytes.prefix(allowed))
            throw .io(path: "test sink", reason: "simulated failure after \(limit) bytes")
        }
        try base.write(bytes)
    }
}

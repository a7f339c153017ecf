/// When a file the resource store writes becomes durable.
public enum StoreDurability: Sendable, Hashable {
    /// Flushed before the store call returns: the file is `fsync`ed, renamed into place and its
    /// directory `fsync`ed.
    case immediate
    /// In place when the call returns but not yet flushed: the caller must call
    /// `ResourceStore.flush(_:)` for the digests before it commits anything that names them, so
    /// that one flush serves a whole group of files. Until then a power loss may leave the file
    /// empty or short; it is unreferenced then (nothing was committed), and the store never reuses
    /// an unflushed file from before a restart without hashing it again.
    case deferred
}

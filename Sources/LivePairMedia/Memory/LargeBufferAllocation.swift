internal import CFFmpeg

/// How long-running media processes (`livepair serve`, `livepair library derivatives`) allocate
/// frame-sized buffers. glibc raises its mmap threshold to the size of each large block freed (up
/// to 32 MB), after which decoded frames (a 1920x1440 RGBA frame is 11 MB) come from the heap
/// arenas of the many decode threads and stay counted in the process's memory after they are
/// freed. A fixed threshold keeps every buffer of 1 MB or more mapped on its own and returned to
/// the system when freed.
public enum LargeBufferAllocation {
    /// The size from which a block is mapped on its own.
    public static let mappedFrom: Int32 = 1 << 20

    /// Sets the fixed threshold for this process (call once, early).
    public static func mapSeparately() {
        _ = livepair_map_blocks_from(mappedFrom)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Keeps a child started with `posix_spawn` from inheriting this process's other descriptors.
///
/// Foundation's `Pipe` descriptors are not close-on-exec: a server spawned while another thread
/// had a pipe open for its own child kept that pipe's write end for the whole run, so the other
/// thread's `readDataToEndOfFile` never returned (seen: a CLI test waiting 40 minutes on a
/// SeaweedFS server that held its `livepair` child's output pipe).
public enum SpawnedDescriptors {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// Adds "close every descriptor from 3 up" to `actions`, after the actions already there
    /// (those that set up 0, 1 and 2). glibc has it since 2.34 as
    /// `posix_spawn_file_actions_addclosefrom_np`, which Swift's Glibc module does not export: it is
    /// looked up by name. Returns false when the C library lacks it.
    @discardableResult
    public static func closeFromThree(_ actions: inout posix_spawn_file_actions_t) -> Bool {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return false }
        let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
        return closeFrom(&actions, 3) == 0
    }
}

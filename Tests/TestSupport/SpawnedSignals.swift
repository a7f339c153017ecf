#if canImport(Glibc)
import Glibc
#endif

/// Starts a child spawned with `posix_spawn` with the signals of a fresh process: none blocked,
/// each at its default action, whatever this test process blocks or ignores (as Foundation's
/// `Process` does).
public enum SpawnedSignals {
    /// Sets `attributes` to reset the child's signal mask and actions, with `extraFlags` (for
    /// instance `POSIX_SPAWN_SETPGROUP`) among the flags it sets.
    public static func reset(_ attributes: inout posix_spawnattr_t, extraFlags: Int32 = 0) {
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | extraFlags))
    }
}

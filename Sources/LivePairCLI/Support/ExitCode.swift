/// Process exit statuses, as documented in `docs/cli.md`.
public enum ExitCode: Int32, Sendable {
    /// Everything was done and nothing failed.
    case success = 0
    /// The command ran, but something it looked at failed (a file could not be read, an error finding).
    case failure = 1
    /// The command was called wrongly (unknown option, missing argument).
    case usage = 64
    /// `inspect`, `pair`, `validate`: nothing failed, but no file found is a photo or movie (an
    /// empty folder, only notes or sidecars): `EX_NOINPUT`.
    case noMedia = 66
}

import LivePairMedia

/// What a shared load task reports to its subscribers.
enum LoadEvent<Value: Sendable>: Sendable {
    /// A degraded preview, and where it came from (nil for the caller's own placeholder).
    case preview(PixelBuffer, source: PreviewSource?)
    /// The final value.
    case final(Value)
    /// The work failed or was cancelled.
    case failure(LoaderError)
}

import LivePairMedia

/// What a shared load task reports to its subscribers.
enum LoadEvent<Value: Sendable>: Sendable {
    /// A degraded preview.
    case preview(PixelBuffer)
    /// The final value.
    case final(Value)
    /// The work failed or was cancelled.
    case failure(LoaderError)
}

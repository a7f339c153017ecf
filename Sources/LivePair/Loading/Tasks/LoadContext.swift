public import LivePairMedia

/// What a load's work closure may use: the shared cancellation flag, and ways to report the
/// validated pair, a degraded preview and progress to the current subscribers.
public struct LoadContext: Sendable {
    /// Set when the last subscriber left; pass it to every decoder and check it between stages.
    public let cancellation: CancellationFlag
    let onValidated: @Sendable () -> Void
    let onPreview: @Sendable (PixelBuffer, PreviewSource) -> Void
    let onProgress: @Sendable (Double) -> Void
    let previewWanted: @Sendable () -> Bool

    /// Throws `.cancelled` when the work was cancelled.
    public func checkCancellation() throws(LoaderError) {
        if cancellation.isCancelled { throw .cancelled }
    }

    /// Tells subscribers the pair passed validation (those with their own placeholder get it now).
    public func validated() { onValidated() }

    /// Delivers a degraded preview, taken from `source`, to the subscribers that want one.
    public func preview(_ image: PixelBuffer, source: PreviewSource) { onPreview(image, source) }

    /// Reports the fraction done (0 to 1).
    public func progress(_ fraction: Double) { onProgress(min(max(fraction, 0), 1)) }

    /// True when at least one subscriber wants the work's own preview.
    public var wantsPreview: Bool { previewWanted() }
}

// `LivePhotoEditSettings.playbackVariation` is a `LivePairFormats` type (the AAE model reads it):
// re-exported so `import LivePair` alone can name it.
@_exported public import enum LivePairFormats.PlaybackVariation

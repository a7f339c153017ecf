/// Receives the library's changes, as PhotoKit's `PHPhotoLibraryChangeObserver`.
///
/// `photoLibraryDidChange` is called after each batch this process commits (on the committing
/// thread, before `performChanges` returns) and for batches other processes committed, when the
/// library notices them (`pollForChanges()`, or the next fetch or commit). Several batches noticed
/// at once arrive as one change.
public protocol LibraryChangeObserver: AnyObject, Sendable {
    /// Called with what changed.
    func photoLibraryDidChange(_ change: LibraryChange)
}

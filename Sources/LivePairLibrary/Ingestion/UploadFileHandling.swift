/// What the ingestor does with an uploaded file (as PhotoKit's `shouldMoveFile`).
public enum UploadFileHandling: Sendable, Hashable {
    /// The file is copied into the store and left as it was (the default: for callers that keep their files).
    case copy
    /// The ingestor takes the file over: it is hard-linked into the store (no bytes copied; copied
    /// only when the store is on another file system) and unlinked after the upload's outcome is
    /// committed, when that outcome is accepted, pending or duplicate. A rejected upload, or one
    /// whose ingest throws, is left in place. The caller must never write to the file again (the
    /// store's file is the same inode); after a crash between the commit and the unlink the file is
    /// still there, and a retry gives the committed outcome and removes it.
    case move
}

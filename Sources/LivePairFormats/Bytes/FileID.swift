/// Which file a path leads to: its device and inode numbers. Two paths with the same `FileID`
/// (hard links, or one file reached twice) hold the same bytes, so they are identical without a read.
public struct FileID: Hashable, Sendable {
    /// The device that holds the file (`st_dev`).
    public let device: UInt64
    /// The file's number on that device (`st_ino`).
    public let inode: UInt64

    /// The file `inode` on `device`.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }
}

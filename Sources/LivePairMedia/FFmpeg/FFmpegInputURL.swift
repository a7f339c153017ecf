/// The URLs handed to `avformat_open_input` for a movie: the file itself through the `file:`
/// protocol only (so that no path is taken for another protocol), or a byte range of a file
/// through the `subfile` protocol (a motion photo's embedded video). Like paths, the URLs carry
/// undecodable bytes as `FileSystemPath` does: hand them to FFmpeg through `FileSystemPath.withCString`.
enum FFmpegInputURL {
    /// The file at `path`.
    static func file(_ path: String) -> String { "file:" + path }

    /// The bytes `range` of the file at `path`.
    static func embedded(in path: String, range: Range<UInt64>) -> String {
        "subfile,,start,\(range.lowerBound),end,\(range.upperBound),,:file:" + path
    }
}

public import LivePair

#if canImport(Glibc)
import Glibc
#endif

extension ContentEditingInput {
    /// A `LivePhotoEditingContext` on this input's base still and movie, as PhotoKit's
    /// `PHLivePhotoEditingContext(livePhotoEditingInput:)`: the base files are linked (symbolic
    /// links) into `workingDirectory` under the names of the asset's original files, so a render
    /// gets Photos' names (`IMG_3582.HEIC` gives `IMG_E3582.HEIC`, `IMG_E3582.MOV`,
    /// `IMG_3582.AAE`). With the original as the base (the editor said it can handle the
    /// adjustment data) the context resumes the edit from it.
    ///
    /// Render it into a folder of your own (`render(outputDirectory:)`), then commit
    /// `ContentEditingOutput(rendered)` in `performChanges`.
    ///
    /// - Throws: `invalidRequest` when the asset is not a Live Photo with a movie;
    ///   `io` when the links cannot be made (`workingDirectory` is created when missing; existing
    ///   links of the same names are replaced); `unreadableResource` when resuming adjustment data
    ///   LivePair cannot read.
    public func livePhotoEditingContext(workingDirectory: String) throws(LibraryError) -> LivePhotoEditingContext {
        guard let fullSizeImagePath, let videoPath, let baseStill, let baseMovie, asset.isLivePhoto else {
            throw .invalidRequest("asset \(asset.localIdentifier) is not a Live Photo with its movie: it has no Live Photo editing context")
        }
        let stem = Self.stem(of: originalFilename ?? baseStill.originalFilename ?? "IMG_0001")
        let stillName = stem + "." + Self.extensionName(of: baseStill.originalFilename, default: "HEIC")
        let movieName = stem + "." + Self.extensionName(of: baseMovie.originalFilename, default: "MOV")
        if mkdir(workingDirectory, 0o755) != 0 && errno != EEXIST {
            throw .io(path: workingDirectory, reason: String(cString: strerror(errno)))
        }
        let photo = try Self.link("\(workingDirectory)/\(stillName)", to: fullSizeImagePath)
        let video = try Self.link("\(workingDirectory)/\(movieName)", to: videoPath)
        guard baseVersion == .original, let adjustmentDataPath else { return LivePhotoEditingContext(photo: photo, video: video) }
        do throws(PackagingError) {
            return try LivePhotoEditingContext(photo: photo, video: video, resuming: adjustmentDataPath)
        } catch {
            throw .unreadableResource(name: "the adjustment data", reason: error.message)
        }
    }

    /// A symbolic link at `path` to `target` (replacing one already there).
    private static func link(_ path: String, to target: String) throws(LibraryError) -> String {
        unlink(path)
        guard symlink(target, path) == 0 else { throw .io(path: path, reason: String(cString: strerror(errno))) }
        return path
    }

    /// `IMG_3582` of `IMG_3582.HEIC` (any folder dropped).
    static func stem(of name: String) -> String {
        let file = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }

    /// `HEIC` of `IMG_3582.HEIC`, else `fallback`.
    static func extensionName(of name: String?, default fallback: String) -> String {
        guard let name, let dot = name.lastIndex(of: "."), name.index(after: dot) != name.endIndex else { return fallback }
        return String(name[name.index(after: dot)...])
    }
}

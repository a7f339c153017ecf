#if canImport(Glibc)
import Glibc
#endif
public import LivePair
import LivePairFormats

extension PhotoLibrary {
    /// Renders a Live Photo edit of `asset` and commits it, as an editor does with PhotoKit:
    /// the asset's content editing input is requested (the original with its edit to resume, when
    /// the edit is LivePair's own or Photos' key photo, trim, mute and variation steps only; else
    /// the current version), `change` sets the edit on the `LivePhotoEditingContext` made from it
    /// (`ContentEditingInput.livePhotoEditingContext`), the edit is rendered by the engine of
    /// `livepair edit`, and the render with LivePair's adjustment data is committed as a
    /// `ContentEditingOutput` in one `performChanges` batch.
    ///
    /// The base files and the render live in a scratch folder made in `scratchDirectory` (default:
    /// `$TMPDIR`, else `/tmp`), removed before returning. A failure (a setting the movie cannot
    /// take, a render that does not validate, a change the library refuses) commits nothing: the
    /// asset is left as it was.
    ///
    /// - Returns: what was rendered (its `findings`, times and identifier; its files are gone,
    ///   stored in the library as the asset's `fullSizePhoto`, `fullSizePairedVideo` and
    ///   `adjustmentData`).
    /// - Throws: `invalidRequest` when the asset is not a Live Photo with its movie or the render
    ///   fails (the packaging error's message); `io` when the scratch folder cannot be made; the
    ///   errors of `requestContentEditingInput` and `performChangesAndWait`.
    @discardableResult
    public func renderLivePhotoEdit(
        of asset: Asset, options: PackagingOptions = PackagingOptions(), scratchDirectory: String? = nil,
        _ change: (inout LivePhotoEditingContext) -> Void
    ) throws(LibraryError) -> RenderedLivePhotoEdit {
        let directory = scratchDirectory ?? Self.temporaryDirectory
        let scratch: LockedScratchFolder
        do throws(FormatError) {
            scratch = try LockedScratchFolder.create(
                in: directory, prefix: "livepair-edit-", provisionalPrefix: ".livepair-edit-new-")
        } catch {
            throw .io(path: directory, reason: error.description)
        }
        defer { scratch.remove() }
        let input = try requestContentEditingInput(
            for: asset, options: ContentEditingInputRequestOptions(canHandleAdjustmentData: Self.livePhotoEditResumes))
        var context = try input.livePhotoEditingContext(workingDirectory: scratch.path + "/base")
        context.options = options
        change(&context)
        let rendered: RenderedLivePhotoEdit
        do throws(PackagingError) {
            rendered = try context.render(outputDirectory: scratch.path + "/render")
        } catch {
            throw .invalidRequest("the edit of asset \(asset.localIdentifier) could not be rendered: \(error.message)")
        }
        try performChangesAndWait { changes in
            changes.changeRequest(for: asset).contentEditingOutput = ContentEditingOutput(rendered)
        }
        return rendered
    }

    /// Whether a Live Photo edit rendered here can resume `data` from the original: LivePair's own
    /// adjustments, or Photos' whose steps are all ones a render applies (a `SmartBlackAndWhite`
    /// or `DepthEffect` step would be lost, so such an edit is continued on its render).
    @Sendable static func livePhotoEditResumes(_ data: AdjustmentData) -> Bool {
        guard let recipe = try? AdjustmentSidecar(adjustmentData: data).recipe() else { return false }
        return LivePhotoEditSettings.unrenderedOperations(of: recipe).isEmpty
    }

    /// `$TMPDIR` when set, else `/tmp`.
    static var temporaryDirectory: String {
        guard let value = getenv("TMPDIR"), let text = String(validatingCString: value), !text.isEmpty else { return "/tmp" }
        return text.hasSuffix("/") && text.count > 1 ? String(text.dropLast()) : text
    }
}

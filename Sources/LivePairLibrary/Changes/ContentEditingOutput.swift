import Foundation
public import LivePair

/// An edit made elsewhere, to apply to an asset in `performChanges`, as PhotoKit's
/// `PHContentEditingOutput`: the adjustment data (an `.AAE` file, kept byte for byte, readable
/// or not) and the rendered files of the edit. Set it as `AssetChangeRequest.contentEditingOutput`:
/// the render and the adjustment data replace any earlier edit's, in the batch's one transaction;
/// the original resources are never touched.
///
/// A photo or Live Photo takes a rendered still (`fullSizePhoto`) and, for a Live Photo, may take
/// a rendered movie (`fullSizePairedVideo`); a video takes a rendered movie (`fullSizeVideo`).
public struct ContentEditingOutput: Sendable, Hashable {
    /// The adjustment data's bytes or file.
    let adjustmentData: ResourceSource
    /// The rendered still, when any.
    let renderedPhoto: ResourceSource?
    /// The rendered movie, when any.
    let renderedVideo: ResourceSource?

    /// An output whose adjustment data is the `.AAE` file at `adjustmentDataPath` and whose
    /// render is the still at `renderedPhotoPath` and the movie at `renderedVideoPath` (copied;
    /// the files' names are kept as the resources' original filenames).
    public init(adjustmentDataPath: String, renderedPhotoPath: String?, renderedVideoPath: String? = nil) {
        adjustmentData = .copy(path: adjustmentDataPath)
        renderedPhoto = renderedPhotoPath.map { .copy(path: $0) }
        renderedVideo = renderedVideoPath.map { .copy(path: $0) }
    }

    /// An output whose adjustment data is `adjustmentData` (the bytes of an `.AAE` property list,
    /// for example `AdjustmentSidecar.xmlBytes`) and whose render is read from the given files.
    public init(adjustmentData: [UInt8], renderedPhotoPath: String?, renderedVideoPath: String? = nil) {
        self.adjustmentData = .data(adjustmentData)
        renderedPhoto = renderedPhotoPath.map { .copy(path: $0) }
        renderedVideo = renderedVideoPath.map { .copy(path: $0) }
    }

    /// The output of a Live Photo edit rendered by `LivePhotoEditingContext` (for example one made
    /// from `ContentEditingInput.livePhotoEditingContext(workingDirectory:)`): its adjustment
    /// data, still and movie, under the names the render gave them.
    public init(_ rendered: RenderedLivePhotoEdit) {
        self.init(
            adjustmentDataPath: rendered.adjustmentsPath, renderedPhotoPath: rendered.photoPath,
            renderedVideoPath: rendered.videoPath)
    }
}

/// What a change request does to an asset's edit.
enum EditChange: Sendable, Hashable {
    /// Apply this edit (replacing any earlier one).
    case apply(ContentEditingOutput)
    /// Remove the render and the adjustment data (`revertAssetContentToOriginal`).
    case revert
}

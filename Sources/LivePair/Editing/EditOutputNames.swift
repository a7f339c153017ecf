/// The names Apple's Photos gives an edit beside its original, which LivePair writes so that
/// Photos (and `livepair pair`'s edit groups) link them: the original `IMG_1234.HEIC` gets the
/// render `IMG_E1234.HEIC` + `IMG_E1234.MOV` and the adjustment data `IMG_1234.AAE`. A name
/// that is not a camera's `PREFIX_digits` gets Photos' export suffix instead: `train.jpg` gives
/// `train_edited.JPG` + `train_edited.MOV` and `train.AAE`.
public struct EditOutputNames: Sendable, Equatable {
    /// The rendered still's file name.
    public let photo: String
    /// The rendered movie's file name.
    public let video: String
    /// The adjustment data's file name.
    public let adjustments: String

    /// The names for the original still named `originalStem` (its file name without extension),
    /// the render's still being `still`.
    public init(originalStem stem: String, still: StillEncoding) {
        let renderStem: String
        if let underscore = stem.firstIndex(of: "_"), underscore != stem.startIndex,
            stem[..<underscore].allSatisfy({ $0.isLetter }),
            stem[stem.index(after: underscore)...].allSatisfy({ $0.isASCII && $0.isNumber }),
            stem.index(after: underscore) != stem.endIndex
        {
            renderStem = stem[..<underscore] + "_E" + stem[stem.index(after: underscore)...]
        } else {
            renderStem = stem + "_edited"
        }
        photo = "\(renderStem).\(still.fileExtension)"
        video = "\(renderStem).MOV"
        adjustments = "\(stem).AAE"
    }
}

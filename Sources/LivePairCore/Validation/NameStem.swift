/// The key under which validation matches orphan halves by name, to explain them: the folder and
/// the stem normalised by `StemNormalizer` (so `IMG_1234.HEIC`, `IMG_1234_HEVC.MOV` and
/// `IMG_1234(1).MOV` share one key). Pairing itself never uses names unless asked to.
enum NameStem {
    /// `folder/normalised-stem` of `resource`.
    static func key(_ resource: AssetResource) -> String { resource.folder + "/" + StemNormalizer.normalize(resource.stem) }
}

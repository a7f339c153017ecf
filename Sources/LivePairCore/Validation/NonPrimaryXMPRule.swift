import LivePairFormats

/// `xmp-on-non-primary-item`: a HEIF still whose motion-photo XMP (Google's Camera and Container
/// namespaces) is attached to an item other than the primary image, for example an iPhone's gain
/// map. Google's libmphoto and androidx media3 read the primary's XMP only, so they see a plain photo.
enum NonPrimaryXMPRule {
    /// The finding about `identity`, if its motion-photo XMP is on another item.
    static func findings(for identity: ResourceIdentity) -> [Finding] {
        guard let item = identity.motionPhotoXMPItemNotPrimary else { return [] }
        return [
            Finding(
                .xmpOnNonPrimaryItem, path: identity.path,
                message: "the motion-photo XMP (item \(item)) of \(ValidationPlan.name(identity.path)) is not attached "
                    + "to the primary image, so Google's readers find no video")
        ]
    }
}

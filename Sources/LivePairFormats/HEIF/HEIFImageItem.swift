/// A summary of one image item: its type, stored size and transforms.
public struct HEIFImageItem: Sendable, Equatable {
    /// The item id.
    public let id: UInt32
    /// The item type (`grid`, `hvc1`, `tmap`, ...).
    public let type: FourCC
    /// The stored width from `ispe` (before `clap`, `irot` and `imir`), if present.
    public let width: Int?
    /// The stored height from `ispe`, if present.
    public let height: Int?
    /// The `irot` rotation anticlockwise in degrees (0 when absent).
    public let rotationDegrees: Int
    /// The `imir` mirror, if any.
    public let mirror: MirrorAxis?
    /// The `clap` crop, if any.
    public let cleanAperture: CleanAperture?
    /// The `infe` hidden flag.
    public let isHidden: Bool
    /// The `auxC` type URN for auxiliary images (gain maps, depth, alpha), if any.
    public let auxiliaryType: String?
    /// Whether the item has an `hvcC` property.
    public let hasHEVCConfiguration: Bool

    /// Memberwise initializer.
    public init(
        id: UInt32, type: FourCC, width: Int?, height: Int?, rotationDegrees: Int, mirror: MirrorAxis?,
        cleanAperture: CleanAperture?, isHidden: Bool, auxiliaryType: String?, hasHEVCConfiguration: Bool
    ) {
        self.id = id
        self.type = type
        self.width = width
        self.height = height
        self.rotationDegrees = rotationDegrees
        self.mirror = mirror
        self.cleanAperture = cleanAperture
        self.isHidden = isHidden
        self.auxiliaryType = auxiliaryType
        self.hasHEVCConfiguration = hasHEVCConfiguration
    }
}

/// One property of the `ipco` container, in file order (associations refer to it by 1-based index).
public enum HEIFItemProperty: Sendable, Equatable {
    /// `ispe`: the image's coded width and height.
    case imageSpatialExtents(width: UInt32, height: UInt32)
    /// `irot`: rotation anticlockwise in degrees (0, 90, 180 or 270).
    case rotation(degrees: Int)
    /// `imir`: mirroring.
    case mirror(MirrorAxis)
    /// `clap`: a clean-aperture crop.
    case cleanAperture(CleanAperture)
    /// `colr`: colour information.
    case colour(HEIFColourInformation)
    /// `hvcC`: the HEVC decoder configuration.
    case hevcConfiguration(HEVCDecoderConfiguration)
    /// `pixi`: bits per channel.
    case pixelInformation(bitsPerChannel: [UInt8])
    /// `auxC`: the auxiliary type URN (for example `urn:com:apple:photo:2020:aux:hdrgainmap`) and subtype bytes.
    case auxiliaryType(urn: String, subtype: [UInt8])
    /// Any other property (or one that could not be parsed), kept by type.
    case other(type: FourCC)

    /// The property's box type.
    public var type: FourCC {
        switch self {
        case .imageSpatialExtents: return "ispe"
        case .rotation: return "irot"
        case .mirror: return "imir"
        case .cleanAperture: return "clap"
        case .colour: return "colr"
        case .hevcConfiguration: return "hvcC"
        case .pixelInformation: return "pixi"
        case .auxiliaryType: return "auxC"
        case .other(let type): return type
        }
    }

    /// Parses one property box payload of `type`. A known property whose payload is malformed
    /// throws; unknown types become `.other`.
    static func parse(type: FourCC, payload: ByteReader, limits: ParseLimits) throws(FormatError) -> HEIFItemProperty {
        var reader = payload
        reader.context = "ipco/\(type)"
        switch type {
        case "ispe":
            _ = try FullBoxHeader(&reader)
            let width = try reader.u32()
            let height = try reader.u32()
            return .imageSpatialExtents(width: width, height: height)
        case "irot":
            return .rotation(degrees: Int(try reader.u8() & 0x03) * 90)
        case "imir":
            return .mirror(try reader.u8() & 0x01 == 0 ? .horizontal : .vertical)
        case "clap":
            let widthN = try reader.i32(), widthD = try reader.u32()
            let heightN = try reader.i32(), heightD = try reader.u32()
            let horizontalN = try reader.i32(), horizontalD = try reader.u32()
            let verticalN = try reader.i32(), verticalD = try reader.u32()
            return .cleanAperture(
                CleanAperture(
                    widthN: widthN, widthD: widthD, heightN: heightN, heightD: heightD,
                    horizontalOffsetN: horizontalN, horizontalOffsetD: horizontalD, verticalOffsetN: verticalN,
                    verticalOffsetD: verticalD))
        case "colr":
            return .colour(try HEIFColourInformation.parse(reader))
        case "hvcC":
            return .hevcConfiguration(try HEVCConfigurationParser.parse(reader.rest(), limits: limits))
        case "pixi":
            _ = try FullBoxHeader(&reader)
            let channels = Int(try reader.u8())
            return .pixelInformation(bitsPerChannel: try reader.bytes(channels))
        case "auxC":
            _ = try FullBoxHeader(&reader)
            let urn = reader.cString()
            return .auxiliaryType(urn: urn, subtype: reader.rest())
        default:
            return .other(type: type)
        }
    }
}

/// One association of a property with an item (`ipma` entry).
public struct HEIFPropertyAssociation: Sendable, Equatable {
    /// 1-based index into the `ipco` properties; 0 means "no property".
    public let propertyIndex: Int
    /// Whether a reader must understand the property to render the item.
    public let isEssential: Bool

    /// Memberwise initializer.
    public init(propertyIndex: Int, isEssential: Bool) {
        self.propertyIndex = propertyIndex
        self.isEssential = isEssential
    }
}

/// A latitude/longitude pair in signed decimal degrees (north and east positive).
public struct GPSCoordinate: Sendable, Equatable {
    /// Latitude in degrees, -90...90.
    public let latitude: Double
    /// Longitude in degrees, -180...180.
    public let longitude: Double

    /// Memberwise initializer.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Reads GPSLatitude/GPSLatitudeRef (0x2/0x1) and GPSLongitude/GPSLongitudeRef (0x4/0x3) from a GPS IFD;
    /// nil when either is missing or out of range.
    public init?(gpsIFD: TIFFIFD) {
        guard let latitude = Self.degrees(gpsIFD.entry(0x0002)), let longitude = Self.degrees(gpsIFD.entry(0x0004))
        else { return nil }
        let latitudeSign: Double = gpsIFD.entry(0x0001)?.string?.uppercased().hasPrefix("S") == true ? -1 : 1
        let longitudeSign: Double = gpsIFD.entry(0x0003)?.string?.uppercased().hasPrefix("W") == true ? -1 : 1
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        self.init(latitude: latitude * latitudeSign, longitude: longitude * longitudeSign)
    }

    private static func degrees(_ entry: TIFFEntry?) -> Double? {
        guard let values = entry?.doubles, !values.isEmpty, values.allSatisfy({ $0.isFinite }) else { return nil }
        var total = values[0]
        if values.count > 1 { total += values[1] / 60 }
        if values.count > 2 { total += values[2] / 3600 }
        return total
    }
}

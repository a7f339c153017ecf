/// Where an asset was taken: WGS 84 latitude and longitude in degrees.
public struct AssetLocation: Sendable, Hashable {
    /// Degrees north (negative: south).
    public var latitude: Double
    /// Degrees east (negative: west).
    public var longitude: Double

    /// A location at `latitude`, `longitude`.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

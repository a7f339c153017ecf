public import LivePairFormats

extension GPSCoordinate {
    /// Parses the decimal-degree form of ISO 6709 that QuickTime writes in
    /// `com.apple.quicktime.location.ISO6709` (`+34.0083-118.4979+000.000/`): a signed latitude, a
    /// signed longitude, an optional signed altitude, an optional `/`. Nil for other forms and
    /// out-of-range values.
    public init?(iso6709 text: String) {
        var numbers: [Double] = []
        var current = ""
        for character in text {
            if character == "+" || character == "-" || character == "/" {
                if !current.isEmpty {
                    guard let value = Double(current) else { return nil }
                    numbers.append(value)
                }
                if character == "/" { current = ""; break }
                current = String(character)
            } else if character.isNumber || character == "." {
                guard !current.isEmpty else { return nil }
                current.append(character)
            } else {
                return nil
            }
        }
        if !current.isEmpty {
            guard let value = Double(current) else { return nil }
            numbers.append(value)
        }
        guard numbers.count >= 2, let latitude = numbers.first, abs(latitude) <= 90, abs(numbers[1]) <= 180,
            latitude.isFinite, numbers[1].isFinite
        else { return nil }
        self.init(latitude: latitude, longitude: numbers[1])
    }
}

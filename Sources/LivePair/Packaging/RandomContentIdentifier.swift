extension ContentIdentifier {
    /// A fresh random (version 4) UUID in Apple's uppercase 8-4-4-4-12 form, as a new content
    /// identifier for a Live Photo.
    public static func random() -> ContentIdentifier {
        var generator = SystemRandomNumberGenerator()
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let digits = Array("0123456789ABCDEF")
        var text = ""
        for (index, byte) in bytes.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        // A UUID string is never empty, so the identifier always exists.
        return ContentIdentifier(rawValue: text)!
    }
}

/// An age given on the command line: a whole number followed by a unit, `s`, `m`, `h` or `d`
/// (`90s`, `30m`, `2h`, `7d`).
enum AgeArgument {
    /// The age in seconds, or nil when `text` is not a number with a unit.
    static func seconds(_ text: String) -> Double? {
        guard let unit = text.last, let number = UInt64(text.dropLast()), text.count > 1 else { return nil }
        let scale: Double
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3_600
        case "d": scale = 86_400
        default: return nil
        }
        return Double(number) * scale
    }
}

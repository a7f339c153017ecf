/// Number formatting for messages, without Foundation.
package enum MessageFormatting {
    /// `value` seconds with up to `decimals` decimals and the unit: "1.33 s", "2 s".
    package static func seconds(_ value: Double, decimals: Int = 2) -> String {
        number(value, decimals: decimals) + " s"
    }

    /// `value` with up to `decimals` decimals, trailing zeros dropped.
    static func number(_ value: Double, decimals: Int = 2) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 1e15 else { return "\(value)" }
        let whole = Int(scaled) / Int(scale)
        var fraction = String(Int(scaled) % Int(scale))
        while fraction.count < decimals { fraction = "0" + fraction }
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = value < 0 && scaled > 0 ? "-" : ""
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

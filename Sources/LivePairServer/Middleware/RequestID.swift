/// The `X-Request-Id` of an exchange: the one a reverse proxy sent (nginx's `$request_id`), when it
/// is 1 to 64 letters, digits, `-`, `_`, `.` or `:`, else 32 random hexadecimal digits. Every
/// response carries it, and so does the request's log line.
enum RequestID {
    /// The request's ID: `proposed` when usable, else a fresh one.
    static func make(proposed: String?) -> String {
        if let proposed, (1...64).contains(proposed.utf8.count),
            proposed.unicodeScalars.allSatisfy({ allowed.contains($0) })
        {
            return proposed
        }
        let high = UInt64.random(in: .min ... .max), low = UInt64.random(in: .min ... .max)
        return hex(high) + hex(low)
    }

    private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:".unicodeScalars)

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// The check of `GET /metrics` when `--metrics-token` is set: `Authorization: Bearer TOKEN`,
/// compared in time that does not depend on where the first difference is.
enum MetricsToken {
    /// Whether `request` carries `token`.
    static func matches(_ request: HTTPRequest, token: String) -> Bool {
        guard let header = request.header("authorization") else { return false }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return false }
        let given = Array(parts[1].utf8), expected = Array(token.utf8)
        var difference = UInt8(given.count == expected.count ? 0 : 1)
        for index in 0..<max(given.count, expected.count) {
            difference |= (index < given.count ? given[index] : 0) ^ (index < expected.count ? expected[index] : 0)
        }
        return difference == 0
    }
}

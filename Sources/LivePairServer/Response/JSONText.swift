import Foundation
import LivePairLogging

/// JSON bodies: Codable values encoded with sorted keys and ISO 8601 dates.
enum JSONText {
    /// `value` encoded (nil when it cannot be).
    static func encode(_ value: some Encodable) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try? Array(encoder.encode(value))
    }

    /// `value` as a 200 (or `status`) `application/json` response.
    static func response(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        guard let bytes = encode(value) else { return HTTPResponse(error: .internal("cannot encode the response")) }
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: .bytes(bytes))
    }
}

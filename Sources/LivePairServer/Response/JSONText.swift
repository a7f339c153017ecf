import Foundation
import LivePairLogging

/// JSON bodies: Codable values encoded with sorted keys and ISO 8601 dates.
enum JSONText {
    /// `value` as a 200 (or `status`) `application/json` response.
    static func response(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let bytes: [UInt8]
        do {
            bytes = Array(try encoder.encode(value))
        } catch {
            return HTTPResponse(error: .internal("cannot encode the response"))
        }
        return HTTPResponse(
            status: status, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
            body: .bytes(bytes))
    }
}

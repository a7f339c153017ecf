import Foundation
import LivePairLibrary

/// The `cursor` of `GET /v1/assets` in date-taken order: the last asset of a page (its date taken,
/// to the bit, and its identifier) and the direction, as opaque base64url text. The next page is
/// the assets after that one, so assets added or deleted meanwhile never shift a page.
enum AssetCursor {
    /// The text for `position`.
    static func text(_ position: DateTakenPosition) -> String {
        let bits = String(position.dateTaken.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
        let plain = "1" + (position.ascending ? "a" : "d") + ":" + bits + ":" + position.localIdentifier
        return Data(plain.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// The position `text` names; 400 when it is not a cursor this server made.
    static func position(_ text: String) throws(HTTPError) -> DateTakenPosition {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard text.count <= 512, let data = Data(base64Encoded: base64) else { throw .badRequest("cursor is not one this server gave") }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "1a" || parts[0] == "1d", let bits = UInt64(parts[1], radix: 16), !parts[2].isEmpty else {
            throw .badRequest("cursor is not one this server gave")
        }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else { throw .badRequest("cursor is not one this server gave") }
        return DateTakenPosition(
            dateTaken: Date(timeIntervalSinceReferenceDate: seconds), localIdentifier: String(parts[2]), ascending: parts[0] == "1a")
    }
}

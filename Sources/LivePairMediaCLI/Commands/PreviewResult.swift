import Foundation
import LivePairCLI
import LivePairFormats

/// One file `livepair preview` wrote: `{"file", "degraded", "width", "height", "milliseconds",
/// "source"}` in its JSON (docs/cli.md, "preview").
struct PreviewResult: Sendable {
    /// The file name in the output folder.
    let file: String
    /// True for the degraded placeholder.
    let degraded: Bool
    /// Width in pixels.
    let width: Int
    /// Height in pixels.
    let height: Int
    /// Time from the request to the result (for motion.mp4: to the end of its encoding).
    let milliseconds: Double
    /// Where the pixels came from: the placeholder's `PreviewSource` (`heif-thumbnail`,
    /// `exif-thumbnail`, `movie-frame`, ...), `still`, the poster's frame, motion.mp4's encoding.
    let source: String

    /// The text line: name, size, source, time.
    var line: String {
        "\(file)  \(width)x\(height)  \(degraded ? "degraded, " : "")\(source)  "
            + String(format: "%.1f", milliseconds) + " ms"
    }

    /// `{"results": [...]}`.
    static func json(_ results: [PreviewResult]) -> JSONElement {
        .object([
            ("results", .array(results.map { result in
                .object([
                    ("file", .string(result.file)), ("degraded", .bool(result.degraded)),
                    ("width", .integer(Int64(result.width))), ("height", .integer(Int64(result.height))),
                    ("milliseconds", .number((result.milliseconds * 10).rounded() / 10)),
                    ("source", .string(result.source)),
                ])
            })),
        ])
    }
}

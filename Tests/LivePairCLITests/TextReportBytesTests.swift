import Foundation
import TestSupport
import Testing

/// The text reports of `inspect`, `pair` and `validate` are written through the output byte
/// buffer; their bytes must be those the earlier `String`-built reports printed for SampleMedia
/// (recorded in `ExpectedReports/` from the executable before the change, run from the package
/// folder with the relative path `SampleMedia`, so column widths do not depend on the checkout).
/// `inspect.txt` is the table with every column whole, `inspect --wide` since the table fits 120
/// columns by default.
@Suite("Text reports: byte-identical through the output buffer")
struct TextReportBytesTests {
    @Test(
        "inspect, pair and validate text over SampleMedia",
        arguments: [
            (["inspect", "--wide"], "inspect.txt"), (["pair"], "pair.txt"), (["pair", "--match-names"], "pair_matchnames.txt"),
            (["validate"], "validate.txt"), (["validate", "--severity", "warning"], "validate_severity_warning.txt"),
        ])
    func reportBytes(arguments: [String], expected: String) throws {
        let expectedURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("ExpectedReports").appendingPathComponent(expected)
        let expectedBytes = try Data(contentsOf: expectedURL)
        let run = try runShell(
            "\"$LIVEPAIR\" " + arguments.joined(separator: " ") + " SampleMedia",
            in: SampleMedia.root.deletingLastPathComponent().path)
        // SampleMedia/broken holds files that cannot be read and assets with errors.
        #expect(run.status == 1)
        #expect(run.error.isEmpty)
        // SampleMedia's names are UTF-8, so the text holds the bytes printed.
        #expect(Data(run.output.utf8) == expectedBytes, "\(arguments.joined(separator: " ")): the output differs from \(expected)")
    }
}

import LivePairCLI
import LivePairLibrary

extension LibraryCommand {
    /// The options of `library edit`.
    static let editOptions: Set<String> = ["adjustments", "photo", "video"]

    /// Why `edit`'s options are incomplete, or nil (the other actions are checked elsewhere).
    static func editUsageProblem(action: String, options: [String: String]) -> UsageError? {
        guard action == "edit" else { return nil }
        if options["adjustments"] == nil { return UsageError("Missing expected option '--adjustments <file>'.") }
        if options["photo"] == nil && options["video"] == nil {
            return UsageError("'edit' needs the render: '--photo <file>' (and '--video <file>' for a Live Photo or video).")
        }
        return nil
    }

    /// `library edit ID --adjustments AAE --photo FILE [--video FILE]` and `library revert ID`: one
    /// change batch applying or reverting the asset's edit, then the asset as `show` prints it.
    static func edit(
        _ identifier: String, in library: PhotoLibrary, options: [String: String], json: Bool, streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let asset = try asset(identifier, in: library)
        let output = options["adjustments"].map {
            ContentEditingOutput(adjustmentDataPath: $0, renderedPhotoPath: options["photo"], renderedVideoPath: options["video"])
        }
        try library.performChangesAndWait { context in
            let request = context.changeRequest(for: asset)
            if let output {
                request.contentEditingOutput = output
            } else {
                request.revertAssetContentToOriginal()
            }
        }
        return try show(identifier, in: library, json: json, streams: streams)
    }
}

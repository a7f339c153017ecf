import LivePair
import LivePairCLI
import LivePairLibrary

extension LibraryCommand {
    /// The options of `library edit` that apply a render made elsewhere.
    static let appliedEditOptions: Set<String> = ["adjustments", "photo", "video"]
    /// The options of `library edit` that render the edit here (those of `livepair edit`).
    static let renderedEditOptions: Set<String> = ["key-photo", "trim", "volume", "variation", "filter"]
    /// The options of `library edit`.
    static let editOptions = appliedEditOptions.union(renderedEditOptions)
    /// The flags of `library edit`.
    static let editFlags: Set<String> = ["mute"]

    /// Why `edit`'s options are incomplete, or nil (the other actions are checked elsewhere).
    static func editUsageProblem(action: String, parsed: ParsedArguments) -> UsageError? {
        guard action == "edit" else { return nil }
        let options = parsed.options
        let renders = renderedEditOptions.contains { options[$0] != nil } || editFlags.contains { parsed.has($0) }
        let applies = appliedEditOptions.contains { options[$0] != nil }
        if renders {
            if let option = appliedEditOptions.sorted().first(where: { options[$0] != nil }) {
                return UsageError("--\(option) applies a render made elsewhere: it cannot be given with the options of an edit rendered here.")
            }
            do throws(UsageError) {
                _ = try EditCommand.settings(parsed, base: LivePhotoEditSettings())
            } catch {
                return error
            }
            return nil
        }
        if !applies {
            return UsageError(
                "'edit' needs an edit: --key-photo, --trim, --mute, --volume, --variation or --filter, or a render made elsewhere with '--adjustments <file>'.")
        }
        if options["adjustments"] == nil { return UsageError("Missing expected option '--adjustments <file>'.") }
        if options["photo"] == nil && options["video"] == nil {
            return UsageError("'edit' needs the render: '--photo <file>' (and '--video <file>' for a Live Photo or video).")
        }
        return nil
    }

    /// `library edit ID` (rendered here, or a render made elsewhere: `--adjustments AAE --photo FILE
    /// [--video FILE]`) and `library revert ID`: one change batch applying or reverting the asset's
    /// edit, then the asset as `show` prints it.
    static func edit(
        _ identifier: String, in library: PhotoLibrary, action: String, parsed: ParsedArguments, json: Bool,
        streams: OutputStreams
    ) throws(LibraryError) -> ExitCode {
        let asset = try asset(identifier, in: library)
        let options = parsed.options
        if action == "edit", options["adjustments"] == nil {
            // The options were checked by editUsageProblem; they are set over the edit resumed.
            try library.renderLivePhotoEdit(of: asset) { context in
                context.settings = (try? EditCommand.settings(parsed, base: context.settings)) ?? context.settings
            }
            return try show(identifier, in: library, json: json, streams: streams)
        }
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

import LivePairFormats
import TestSupport
import Testing

@Suite("AAE edit files: Photos' and LivePair's")
struct AdjustmentSidecarTests {
    @Test("IMG_1853.AAE: a key-photo edit at 1740/600 s")
    func keyPhotoEdit() throws {
        let sidecar = try AdjustmentSidecar.read(try SampleMedia.bytes("live/IMG_1853.AAE"))
        #expect(sidecar.adjustmentData.formatIdentifier == "com.apple.photo")
        #expect(sidecar.adjustmentData.formatVersion == "1.4")
        #expect(sidecar.adjustmentData.data.count == 242)
        #expect(sidecar.baseVersion == 0)
        #expect(sidecar.editorBundleID == "com.apple.Photos")
        #expect(sidecar.timestamp?.iso8601 == "2024-06-01T22:19:30Z")
        #expect(sidecar.renderTypes == nil)
        #expect(sidecar.otherEntries.isEmpty)
        #expect(sidecar.hasReadableRecipe)

        let json = try Inflater().inflate(sidecar.adjustmentData.data)
        #expect(json.count == 365)
        #expect(json.starts(with: Array(#"{"metadata":{"masterHeight":4032,"masterWidth":3024,"orientation":6}"#.utf8)))

        let recipe = try #require(try sidecar.recipe())
        #expect(recipe.identifiers == ["LivePhotoKeyFrame"])
        #expect(recipe.keyPhotoTime == AdjustmentTime(value: 1740, timescale: 600, flags: 1, epoch: 0))
        #expect(recipe.keyPhotoTime?.seconds == 2.9)
        #expect(recipe.operations[0].enabled == nil && recipe.operations[0].isEnabled)
        #expect(recipe.operations[0].formatIdentifier == "com.apple.photo")
        #expect(recipe.master == AdjustmentRecipe.Master(width: 3024, height: 4032, orientation: 6))
        #expect(recipe.versionInfo?["platform"] == .string("macOS"))
        #expect(recipe.versionInfo?["buildNumber"] == .string("22G90"))
        #expect(recipe.trimRange == nil && !recipe.isMuted && recipe.playbackVariation == PlaybackVariation.none)
        // Written again, the recipe is Photos' JSON byte for byte.
        #expect(recipe.json.jsonBytes() == json)
        // And the whole file too.
        #expect(sidecar.xmlBytes == (try SampleMedia.bytes("live/IMG_1853.AAE")))
    }

    @Test("IMG_3582.AAE: black and white plus depth effect, render types 24578")
    func depthEdit() throws {
        let bytes = try SampleMedia.bytes("live/IMG_3582.AAE")
        let sidecar = try AdjustmentSidecar.read(bytes)
        #expect(sidecar.adjustmentData.formatVersion == "1.11")
        #expect(sidecar.renderTypes == 24578)
        #expect(sidecar.timestamp?.secondsSinceReferenceDate == 788_674_042)
        let json = try Inflater().inflate(sidecar.adjustmentData.data)
        #expect(json.count == 1023)
        let recipe = try #require(try sidecar.recipe())
        #expect(recipe.identifiers == ["SmartBlackAndWhite", "DepthEffect"])
        #expect(recipe.operations.map(\.enabled) == [true, true])
        #expect(recipe.operations[0].settings["inputBlackAndWhite"] == .number(0.3332932692307693))
        #expect(recipe.operations[1].settings["aperture"] == .number(2.7999999523162842))
        #expect(recipe.operations[1].settings["depthInfo"]?["SDOFRenderingVersion"] == .integer(7))
        #expect(recipe.master == AdjustmentRecipe.Master(width: 4284, height: 5712, orientation: 6))
        #expect(recipe.keyPhotoTime == nil && recipe.playbackVariation == PlaybackVariation.none)
        // Numbers are written in Swift's shortest form, so compare the recipe read back.
        #expect(try AdjustmentRecipe.read(json: recipe.json.jsonBytes()) == recipe)
        #expect(sidecar.xmlBytes == bytes)
    }

    @Test("a binary-plist AAE reads as its XML original")
    func binaryAAE() throws {
        let binary = try AdjustmentSidecar.read(try AdjustmentFixtures.bytes("IMG_1853.binary.AAE"))
        #expect(binary == (try AdjustmentSidecar.read(try SampleMedia.bytes("live/IMG_1853.AAE"))))
    }

    static let edit = AdjustmentRecipe(
        master: AdjustmentRecipe.Master(width: 1920, height: 1440, orientation: 1),
        operations: [
            .keyPhoto(at: AdjustmentTime(value: 1500, timescale: 600)),
            .trim(AdjustmentTimeRange(start: AdjustmentTime(value: 300, timescale: 600), end: AdjustmentTime(value: 1740, timescale: 600))),
            .mute,
        ] + [AdjustmentOperation.playback(.bounce)].compactMap { $0 })

    @Test("LivePair's own edits: written, read back, resumed", arguments: [LivePairAdjustments.Compression.none, .deflate])
    func livePairRoundTrip(compression: LivePairAdjustments.Compression) throws {
        let timestamp = PropertyListDate(iso8601: "2026-12-01T12:00:00Z")
        let written = LivePairAdjustments.sidecar(Self.edit, compression: compression, timestamp: timestamp)
        #expect(written.adjustmentData.formatIdentifier == "org.livepair.adjustments")
        #expect(written.adjustmentData.formatVersion == "1.0")
        #expect(written.editorBundleID == "org.livepair")
        #expect(written.adjustmentData.data.first == (compression == .none ? UInt8(ascii: "{") : 0x01))
        let read = try AdjustmentSidecar.read(written.xmlBytes)
        #expect(read == written)
        let recipe = try #require(try read.recipe())
        #expect(recipe.identifiers == ["LivePhotoKeyFrame", "Trim", "Mute", "AutoLoop"])
        #expect(recipe.operations.allSatisfy { $0.formatIdentifier == "org.livepair.adjustments" })
        #expect(recipe.keyPhotoTime?.seconds == 2.5)
        #expect(recipe.trimRange?.start.seconds == 0.5 && recipe.trimRange?.end.seconds == 2.9)
        #expect(recipe.isMuted)
        #expect(recipe.playbackVariation == .bounce && recipe.autoLoopFlavor == "Mirror")
        #expect(recipe.master == Self.edit.master)
    }

    @Test("LivePair's writer output is stable: the committed fixture, which Python's plistlib reads")
    func livePairFixture() throws {
        let written = LivePairAdjustments.sidecar(
            Self.edit, compression: .none, timestamp: PropertyListDate(iso8601: "2026-12-01T12:00:00Z"))
        #expect(written.xmlBytes == (try AdjustmentFixtures.bytes("livepair-keyphoto-trim-mute-bounce.AAE")))
    }

    @Test("disabled steps and unknown flavors")
    func disabledAndUnknown() throws {
        var mute = AdjustmentOperation.mute
        mute.enabled = false
        let loop = AdjustmentOperation(identifier: "AutoLoop", settings: .object([JSONMember("flavor", .string("Swirl"))]))
        let recipe = AdjustmentRecipe(operations: [mute, loop])
        #expect(!recipe.isMuted)
        #expect(recipe.playbackVariation == nil && recipe.autoLoopFlavor == "Swirl")
        for variation in PlaybackVariation.allCases where variation != .none {
            let step = try #require(AdjustmentOperation.playback(variation))
            #expect(AdjustmentRecipe(operations: [step]).playbackVariation == variation)
        }
    }

    @Test("other editors' data stays opaque, byte for byte")
    func opaqueEditor() throws {
        let data: [UInt8] = (0..<300).map { UInt8(($0 * 37) % 256) }
        let sidecar = AdjustmentSidecar(
            adjustmentData: AdjustmentData(formatIdentifier: "com.example.filters", formatVersion: "3", data: data),
            editorBundleID: "com.example.app", otherEntries: [PropertyListEntry("exampleExtra", .boolean(true))])
        let read = try AdjustmentSidecar.read(sidecar.xmlBytes)
        #expect(read.adjustmentData.data == data)
        #expect(read.otherEntries == [PropertyListEntry("exampleExtra", .boolean(true))])
        #expect(!read.hasReadableRecipe)
        #expect(try read.recipe() == nil)
    }

    @Test("hostile edit data: a DEFLATE bomb, deep JSON, missing keys get typed errors")
    func hostile() throws {
        let bomb = AdjustmentSidecar(
            adjustmentData: AdjustmentData(
                formatIdentifier: "com.apple.photo", formatVersion: "1.4",
                data: try AdjustmentFixtures.bytes("zeros-64MiB.deflate")))
        var limits = ParseLimits.default
        limits.maximumInflatedBytes = 1 << 20
        do {
            _ = try AdjustmentSidecar.read(bomb.xmlBytes).recipe(limits: limits)
            Issue.record("the bomb was read")
        } catch {
            guard case let .limitExceeded(context, limit, _, maximum) = error else { throw error }
            #expect(context == "com.apple.photo adjustment data" && limit == "inflated size" && maximum == 1 << 20)
        }

        let deep = Array((String(repeating: "[", count: 100) + String(repeating: "]", count: 100)).utf8)
        let deepSidecar = AdjustmentSidecar(
            adjustmentData: AdjustmentData(formatIdentifier: "com.apple.photo", formatVersion: "1.4", data: StoredDeflater.deflate(deep)))
        #expect(throws: FormatError.limitExceeded(context: "com.apple.photo adjustment data", limit: "nesting depth", value: 33, maximum: 32)) {
            try deepSidecar.recipe()
        }

        let notJSON = AdjustmentSidecar(
            adjustmentData: AdjustmentData(formatIdentifier: "com.apple.photo", formatVersion: "1.4", data: StoredDeflater.deflate(Array("{}".utf8))))
        #expect(throws: FormatError.invalid(context: "com.apple.photo adjustment data", reason: "no 'adjustments' array")) {
            try notJSON.recipe()
        }

        let missing = XMLPropertyListWriter.write(.dictionary(PropertyListDictionary([
            PropertyListEntry("adjustmentFormatIdentifier", .string("com.apple.photo")),
        ])))
        #expect(throws: FormatError.invalid(context: "AAE", reason: "no adjustmentFormatVersion")) {
            try AdjustmentSidecar.read(missing)
        }
        #expect(throws: FormatError.invalid(context: "AAE", reason: "the property list's root is not a dictionary")) {
            try AdjustmentSidecar.read(XMLPropertyListWriter.write(.array([])))
        }
    }
}

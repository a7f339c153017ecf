import Foundation
import LivePair
import TestSupport
import Testing

@Suite("Validation rule catalog")
struct ValidationCatalogTests {
    static let required = [
        "missing-content-identifier", "identifier-mismatch", "malformed-content-identifier", "missing-pair-photo",
        "missing-pair-video", "ambiguous-pair", "duplicate-file", "missing-still-image-time",
        "still-image-time-out-of-range", "still-image-time-not-on-frame", "non-apple-metadata-location",
        "extension-mismatch", "orientation-mismatch", "aspect-mismatch", "capture-time-mismatch",
        "unsupported-video-codec", "unusual-duration", "corrupt-file", "motion-photo-video-missing",
        "motion-photo-timestamp-out-of-range", "hevc-video", "undecodable-photo", "undecodable-video", "not-media",
        "sample-table-out-of-file", "missing-video-track", "truncated-image-data",
        "conflicting-content-identifiers", "xmp-on-non-primary-item", "edit-data-without-photo",
        "edit-render-without-original", "edit-master-size-mismatch", "edit-unknown-filter",
    ]

    @Test("every required code is in the catalog, once, in kebab case, with a title and a hint")
    func catalogComplete() {
        let codes = ValidationRule.catalog.map(\.code.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(Set(codes) == Set(Self.required))
        for rule in ValidationRule.catalog {
            #expect(rule.code.rawValue.allSatisfy { $0.isLowercase || $0 == "-" })
            #expect(!rule.title.isEmpty && !rule.hint.isEmpty)
            #expect(ValidationRule.rule(for: rule.code) == rule)
        }
        #expect(ValidationRule.catalog.filter(\.requiresDeepValidation).map(\.code) == [.undecodablePhoto, .undecodableVideo])
    }

    @Test("the severities are the documented ones")
    func severities() {
        let errors: Set<FindingCode> = [
            .missingContentIdentifier, .identifierMismatch, .missingStillImageTime, .stillImageTimeOutOfRange,
            .corruptFile, .unsupportedVideoCodec, .motionPhotoVideoMissing, .undecodablePhoto, .undecodableVideo,
            .notMedia, .sampleTableOutOfFile, .missingVideoTrack, .truncatedImageData, .conflictingContentIdentifiers,
        ]
        let infos: Set<FindingCode> = [.aspectMismatch, .hevcVideo, .unusualDuration, .editRenderWithoutOriginal]
        for rule in ValidationRule.catalog {
            let expected: Severity = errors.contains(rule.code) ? .error : infos.contains(rule.code) ? .info : .warning
            #expect(rule.severity == expected, "\(rule.code)")
        }
    }

    @Test("only unreadable, unsafe or conflicting findings reject an upload; the rest are kept as flags")
    func uploadEffects() {
        let rejecting: Set<FindingCode> = [
            .missingContentIdentifier, .identifierMismatch, .ambiguousPair, .corruptFile, .undecodablePhoto,
            .undecodableVideo, .notMedia, .sampleTableOutOfFile, .missingVideoTrack, .truncatedImageData,
            .conflictingContentIdentifiers,
        ]
        for rule in ValidationRule.catalog {
            let expected: UploadEffect = rejecting.contains(rule.code) ? .rejectsUpload : .acceptedWithFlag
            #expect(rule.uploadEffect == expected, "\(rule.code)")
            #expect(rule.code.rejectsUpload == (expected == .rejectsUpload))
        }
        // Photos rejects a movie without a still-image time, a backend keeps it (derived still time).
        #expect(FindingCode.missingStillImageTime.uploadEffect == .acceptedWithFlag)
        #expect(FindingCode(rawValue: "no-such-code").rejectsUpload)
    }

    @Test("every code is documented in docs/validation.md with its severity and what it does to an upload")
    func documented() throws {
        let docs = SampleMedia.root.deletingLastPathComponent().appendingPathComponent("docs/validation.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        for rule in ValidationRule.catalog {
            let row = text.split(separator: "\n").first { $0.hasPrefix("| `\(rule.code.rawValue)` |") }
            #expect(row?.contains("| \(rule.severity.rawValue) |") == true, "\(rule.code) is not documented as \(rule.severity)")
            let effect = rule.uploadEffect == .rejectsUpload ? "| rejects |" : "| accepted, flagged |"
            #expect(row?.contains(effect) == true, "\(rule.code) is not documented as \(effect)")
        }
    }

    @Test("a finding built from a code takes the catalog's severity and hint")
    func findingFromCode() {
        let finding = Finding(.missingPairVideo, path: "/a/IMG_1.HEIC", message: "m")
        #expect(finding.severity == .warning)
        #expect(finding.hint == ValidationRule.rule(for: .missingPairVideo)?.hint)
        #expect(Finding(.missingPairVideo, path: "p", message: "m", hint: "h").hint == "h")
    }
}

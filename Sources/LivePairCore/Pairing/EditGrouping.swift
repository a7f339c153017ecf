import LivePairFormats

/// Finds edit groups by name, within one folder, as Photos, iCloud exports and icloudpd name
/// the files of an edit (docs/pairing.md, "Edits"):
/// - a render: `IMG_E1234.*` (Photos' exports), `IMG_1234_edited.*` (Photos' "edited" export
///   names), `IMG_1234-adjusted.*` (icloudpd), `IMG_1234-edited.*` (Google Takeout, and its
///   localised suffixes: `TakeoutEditedRenders`);
/// - adjustment data: `IMG_1234.AAE`, `IMG_O1234.AAE` (the original's own adjustments),
///   `IMG_1234(1).AAE` (a copy counter);
/// - the original: any other photo or movie whose stem is the group's.
///
/// Stems compare after `StemNormalizer` (case, copy counters, `_HEVC`). A render whose capture
/// time is known on both sides and more than `maximumCaptureDistance` from the original's is not
/// linked to it. A group is reported when it has a render or adjustment data.
public enum EditGrouping {
    /// How far apart (seconds) a render's and an original's capture times may be.
    public static let maximumCaptureDistance: Double = 2

    /// What part of an edit group a name says a file is.
    package enum Part: Equatable {
        case original, render, adjustments
    }

    /// The group stem and the part, from a file's stem and whether it is an `.AAE`.
    package static func classify(stem: String, isAdjustmentData: Bool) -> (stem: String, part: Part) {
        var base = StemNormalizer.normalize(stem)
        if isAdjustmentData {
            if let original = dropLetter("o", from: base) { base = original }
            return (base, .adjustments)
        }
        if let original = dropLetter("e", from: base) { return (original, .render) }
        for suffix in ["_edited", "-adjusted"] + TakeoutEditedRenders.suffixes where base.hasSuffix(suffix) && base.count > suffix.count {
            return (StemNormalizer.normalize(String(base.dropLast(suffix.count))), .render)
        }
        return (base, .original)
    }

    /// `img_e1234` -> `img_1234` for `letter` `e`: a letter after the last `_` followed by digits only.
    private static func dropLetter(_ letter: Character, from stem: String) -> String? {
        guard let underscore = stem.lastIndex(of: "_") else { return nil }
        let rest = stem[stem.index(after: underscore)...]
        guard rest.first == letter, rest.count > 1, rest.dropFirst().allSatisfy(\.isASCIIDigitCharacter) else { return nil }
        return String(stem[...underscore]) + rest.dropFirst()
    }

    /// The edit groups among `resources`, sorted by folder then stem.
    public static func groups(_ resources: [AssetResource]) -> [EditGroup] {
        struct Key: Hashable {
            let folder: String
            let stem: String
        }
        var members: [Key: [(resource: AssetResource, part: Part)]] = [:]
        for resource in resources {
            let isAdjustmentData = resource.role == .adjustmentData
            guard isAdjustmentData || resource.identity.format.isStill || resource.identity.format.isMovie else { continue }
            let (stem, part) = classify(stem: resource.stem, isAdjustmentData: isAdjustmentData)
            members[Key(folder: resource.folder, stem: stem), default: []].append((resource, part))
        }
        var groups: [EditGroup] = []
        for (key, files) in members where files.contains(where: { $0.part != .original }) {
            var group = EditGroup(folder: key.folder, stem: key.stem)
            let originalDates = files.filter { $0.part == .original }.compactMap(\.resource.identity.captureDate)
            for (resource, part) in files.sorted(by: { $0.resource.path < $1.resource.path }) {
                switch part {
                case .original: group.originals.append(resource.path)
                case .adjustments: group.adjustments.append(resource.path)
                case .render:
                    if let date = resource.identity.captureDate, !originalDates.isEmpty,
                        !originalDates.contains(where: {
                            CaptureDate.pairingDistance($0, date, tolerance: maximumCaptureDistance)
                                .magnitude <= maximumCaptureDistance
                        })
                    {
                        continue
                    }
                    group.renders.append(resource.path)
                }
            }
            groups.append(group)
        }
        return groups.sorted { ($0.folder, $0.stem) < ($1.folder, $1.stem) }
    }
}

extension Character {
    /// `0` to `9`.
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}

import LivePairFormats

/// The edit rules: edit groups (`EditGrouping`) whose adjustment data has no photo, whose render
/// has no original, whose adjustment data was made on a master of another size, or names a frame
/// filter LivePair does not have.
enum EditRules {
    /// The findings of every edit group among `resources`, by the path they concern.
    static func findings(_ resources: [AssetResource]) -> [String: [Finding]] {
        let byPath = Dictionary(resources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        var findings: [String: [Finding]] = [:]
        for group in EditGrouping.groups(resources) {
            let originals = group.originals.compactMap { byPath[$0] }
            if originals.isEmpty {
                for path in group.adjustments {
                    findings[path, default: []].append(
                        Finding(
                            .editDataWithoutPhoto, path: path,
                            message: "\(ValidationPlan.name(path)) is edit data, but no photo named \(group.stem).* is in its folder"))
                }
                for path in group.renders {
                    findings[path, default: []].append(
                        Finding(
                            .editRenderWithoutOriginal, path: path,
                            message: "\(ValidationPlan.name(path)) is an edited version, but no original named \(group.stem).* is in its folder"))
                }
            }
            for path in group.adjustments {
                guard let name = byPath[path]?.identity.adjustment?.filterName, LivePhotoFilter(rawValue: name) == nil else { continue }
                findings[path, default: []].append(
                    Finding(
                        .editUnknownFilter, path: path,
                        message: "\(ValidationPlan.name(path)) names the frame filter '\(name)', which LivePair does not have (\(LivePhotoFilter.names.joined(separator: ", ")))"))
            }
            let stills = originals.filter { $0.identity.format.isStill }
            for path in group.adjustments {
                guard let master = byPath[path]?.identity.adjustment?.master else { continue }
                let expected = [master.width, master.height].sorted()
                for still in stills {
                    guard let width = still.identity.width, let height = still.identity.height,
                        [Int64(width), Int64(height)].sorted() != expected
                    else { continue }
                    findings[path, default: []].append(
                        Finding(
                            .editMasterSizeMismatch, path: path,
                            message: "\(ValidationPlan.name(path)) was made on a \(master.width)x\(master.height) image; "
                                + "\(ValidationPlan.name(still.path)) is \(width)x\(height)"))
                }
            }
        }
        return findings
    }
}

import LivePairFormats

extension ResourceIdentifier {
    /// The largest `.AAE` file read (Photos' are 1-2 KiB).
    static let maximumAdjustmentFileBytes: UInt64 = 1 << 20

    /// An `.AAE` file: role `adjustment-data` whatever its content; what it says when it is an
    /// adjustment property list, and an issue (so `corrupt-file`) when it is not, or when its
    /// recipe is damaged or passes a limit (a DEFLATE bomb, a hostile plist).
    func identifyAdjustmentData(_ source: any ByteSource, into identity: inout ResourceIdentity) {
        identity.role = .adjustmentData
        do throws(FormatError) {
            guard source.size <= Self.maximumAdjustmentFileBytes else {
                throw .limitExceeded(
                    context: "AAE", limit: "file size", value: source.size, maximum: Self.maximumAdjustmentFileBytes)
            }
            let bytes = try source.readExactly(at: 0, count: Int(source.size), context: "AAE")
            let sidecar = try AdjustmentSidecar.read(bytes, limits: limits)
            var info = AdjustmentInfo(
                formatIdentifier: sidecar.adjustmentData.formatIdentifier,
                formatVersion: sidecar.adjustmentData.formatVersion)
            identity.adjustment = info
            if let recipe = try sidecar.recipe(limits: limits) {
                info.master = recipe.master
                info.operations = recipe.identifiers
                info.keyPhotoTime = recipe.keyPhotoTime?.seconds
                info.filterName = recipe.filterName
                identity.adjustment = info
            }
        } catch {
            identity.issues.append(IdentityIssue(error))
        }
    }
}

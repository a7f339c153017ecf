import Dispatch
public import LivePairFormats
import Synchronization

/// Checks paired resources against the rule catalog (`ValidationRule.catalog`) and reports what
/// is wrong with each Live Photo, motion photo and loose file, with a fix hint for each finding.
///
/// Validation reads metadata only (a movie's frame nearest its still-image time comes with its
/// identity; only an identity made without it has the movie's `moov` read again) unless
/// `options.deep` is set, when it also decodes the still's primary image and the movie's frame at
/// the still-image time through `deepValidation`. It never modifies a file.
///
/// `LivePairCore` holds no decoder: `import LivePair` adds `init(options:limits:)`, which uses the
/// media bridge for `options.deep`; code that imports `LivePairCore` alone passes its own (or nil).
public struct Validator: Sendable {
    /// What to check and the thresholds.
    public let options: ValidationOptions
    /// Parser limits for the files read again.
    public let limits: ParseLimits
    /// The decode checks run when `options.deep` is set; nil checks metadata only.
    public let deepValidation: (any DeepValidation)?

    /// A validator with `options` and `limits` that decodes through `deepValidation` when `options.deep`.
    public init(options: ValidationOptions, limits: ParseLimits = .default, deepValidation: (any DeepValidation)?) {
        self.options = options
        self.limits = limits
        self.deepValidation = deepValidation
    }

    /// Validates the outcome of pairing. Assets are the pairs, orphan halves that carry an
    /// identifier and motion photos; files are everything else (plain photos and movies,
    /// unreadable files, duplicates). Assets are ordered by photo (or movie) path, files by path.
    ///
    /// - Parameter progress: called after each asset and file with the number done and the total;
    ///   it may be called from several threads at once and must be thread-safe.
    public func validate(
        _ result: PairingResult, progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) -> ValidationReport {
        let plan = ValidationPlan(result)
        let deep = options.deep ? deepValidation : nil
        let total = plan.assets.count + plan.files.count
        let done = Atomic<Int>(0)
        let report: @Sendable () -> Void = {
            let count = done.add(1, ordering: .relaxed).newValue
            progress?(count, total)
        }
        let edits = EditRules.findings(result.resources)
        let assets = map(plan.assets) { asset in
            defer { report() }
            return validate(asset, deep: deep, edits: edits)
        }
        let files = map(plan.files) { file in
            defer { report() }
            return ValidatedFile(
                path: file.path, role: file.role,
                findings: file.findings + (file.resource.map(FileRules.findings) ?? []) + (edits[file.path] ?? []))
        }
        return ValidationReport(assets: assets, files: files)
    }

    /// Runs every rule on one asset; `edits` are the edit rules' findings by path.
    private func validate(_ asset: AssetPlan, deep: (any DeepValidation)?, edits: [String: [Finding]]) -> ValidatedAsset {
        var findings = asset.findings
        for half in [asset.photo, asset.video].compactMap({ $0 }) { findings += edits[half.path] ?? [] }
        for half in [asset.photo, asset.video].compactMap({ $0 }) { findings += FileRules.findings(for: half) }
        switch asset.kind {
        case .livePhoto:
            findings += LivePhotoRules.findings(photo: asset.photo, video: asset.video, options: options, limits: limits)
        case .motionPhoto:
            if let photo = asset.photo { findings += MotionPhotoRules.findings(for: photo.identity, options: options) }
        }
        if let deep {
            if let photo = asset.photo {
                findings += deep.photoFindings(photo.identity)
                if asset.kind == .motionPhoto { findings += deep.embeddedVideoFindings(photo.identity) }
            }
            if let video = asset.video { findings += deep.videoFindings(video.identity) }
        }
        return ValidatedAsset(
            kind: asset.kind, contentIdentifier: asset.contentIdentifier, photo: asset.photo?.path,
            video: asset.video?.path, findings: Self.unique(findings))
    }

    /// Drops repeated findings (the same code, path and message), keeping the first.
    private static func unique(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { seen.insert("\($0.code)\u{0}\($0.path)\u{0}\($0.message)").inserted }
    }

    /// `transform` over `items`, on all cores when `options.parallel` and there is more than one item;
    /// the results keep the order of `items`.
    private func map<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ transform: @escaping @Sendable (Item) -> Result
    ) -> [Result] {
        guard options.parallel, items.count > 1 else { return items.map(transform) }
        let results = Mutex<[Int: Result]>([:])
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let value = transform(items[index])
            results.withLock { $0[index] = value }
        }
        return results.withLock { stored in items.indices.compactMap { stored[$0] } }
    }
}

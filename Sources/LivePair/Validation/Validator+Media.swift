public import LivePairCore
public import LivePairFormats
public import LivePairMedia

extension Validator {
    /// A validator with `options` and `limits` whose deep validation (`options.deep`) decodes the
    /// still's primary image and the movie's frame at the still-image time through the media bridge.
    public init(options: ValidationOptions = ValidationOptions(), limits: ParseLimits = .default) {
        self.init(options: options, limits: limits, cancellation: CancellationFlag())
    }

    /// The same validator whose deep decodes stop (are skipped) once `cancellation` is cancelled.
    init(options: ValidationOptions, limits: ParseLimits, cancellation: CancellationFlag) {
        self.init(
            options: options, limits: limits,
            deepValidation: Self.mediaDeepValidation(options: options, limits: limits, cancellation: cancellation))
    }

    /// Validates the outcome of pairing (see `validate(_:progress:)`); once `cancellation` is
    /// cancelled, remaining deep decodes are skipped.
    public func validate(
        _ result: PairingResult, cancellation: CancellationFlag,
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) -> ValidationReport {
        Validator(options: options, limits: limits, cancellation: cancellation).validate(result, progress: progress)
    }

    /// Pairs `resources` and validates them; deep decodes stop once `cancellation` is cancelled.
    public func validate(
        _ resources: [AssetResource], pairing: PairingOptions = PairingOptions(), cancellation: CancellationFlag
    ) -> ValidationReport {
        validate(Pairing.pair(resources, options: pairing), cancellation: cancellation)
    }

    /// Identifies, pairs and validates the files at `paths`; deep decodes stop once `cancellation` is cancelled.
    public func validate(
        paths: [String], pairing: PairingOptions = PairingOptions(), cancellation: CancellationFlag
    ) -> ValidationReport {
        Validator(options: options, limits: limits, cancellation: cancellation).validate(paths: paths, pairing: pairing)
    }
}

extension Validator {
    /// The media bridge's deep validation for `options` (its frame size) and `limits`: what
    /// `init(options:limits:)` uses, for callers that build a `Validator` from `LivePairCore` parts.
    public static func mediaDeepValidation(
        options: ValidationOptions, limits: ParseLimits = .default, cancellation: CancellationFlag = CancellationFlag()
    ) -> any DeepValidation {
        DeepDecodeCheck(limits: limits, frameDimension: options.deepFrameDimension, cancellation: cancellation)
    }
}

extension Validator {
    /// Pairs `resources` with `Pairing.pair` (see `PairingOptions`), then validates the result.
    public func validate(_ resources: [AssetResource], pairing: PairingOptions = PairingOptions()) -> ValidationReport {
        validate(Pairing.pair(resources, options: pairing))
    }

    /// Identifies the files at `paths` with `ResourceIdentifier`, pairs and validates them.
    public func validate(paths: [String], pairing: PairingOptions = PairingOptions()) -> ValidationReport {
        let identifier = ResourceIdentifier(limits: limits)
        return validate(paths.map { AssetResource(identifier.identify(path: $0)) }, pairing: pairing)
    }
}

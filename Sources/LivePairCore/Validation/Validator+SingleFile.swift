extension Validator {
    /// The findings about one file on its own (readable, extension, identifier form and place, a
    /// motion photo's video), as `validate` reports them; reads nothing but `identity`.
    public static func fileFindings(for identity: ResourceIdentity) -> [Finding] {
        FileRules.findings(for: AssetResource(identity)).sorted(by: Finding.reportOrder)
    }

    /// Decodes one file as `--deep` does, whatever `options.deep` says, through `deep`: a still's
    /// primary image (and a motion photo's embedded video at its presentation timestamp), or a
    /// movie's frame at its still-image time (the middle without one). `undecodable-photo` /
    /// `undecodable-video` when the data does not decode; empty for other formats. Used by
    /// ingestion's deep option.
    public static func decodeFindings(for identity: ResourceIdentity, using deep: any DeepValidation) -> [Finding] {
        if identity.format.isMovie { return deep.videoFindings(identity) }
        guard identity.format.isStill else { return [] }
        return deep.photoFindings(identity) + deep.embeddedVideoFindings(identity)
    }
}

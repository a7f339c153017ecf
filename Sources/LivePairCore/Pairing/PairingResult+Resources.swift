extension PairingResult {
    /// Every resource of the result: pair halves, motion photos and unpaired resources (duplicates
    /// are named by path only), in that order.
    public var resources: [AssetResource] {
        pairs.flatMap { [$0.photo, $0.video] } + motionPhotos + unpaired.map(\.resource)
    }

    /// The edit groups (original, render, adjustment data) among the result's resources, by name
    /// within one folder (`EditGrouping`).
    public var editGroups: [EditGroup] { EditGrouping.groups(resources) }
}

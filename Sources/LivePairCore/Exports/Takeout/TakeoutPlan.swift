/// What a Takeout export becomes: its assets, its albums, and the end of every file.
public struct TakeoutPlan: Sendable, Equatable {
    /// One album: the folder that holds it and its title (from its metadata file).
    public struct Album: Sendable, Equatable {
        /// The album's folder in the export's tree.
        public var folder: String
        /// The title.
        public var title: String
        /// The primary paths of its assets, sorted.
        public var members: [String]
    }

    /// The assets, sorted by primary path.
    public var assets: [TakeoutAsset] = []
    /// The albums, sorted by title then folder.
    public var albums: [Album] = []
    /// Every file, sorted by path: media, sidecar, album metadata or ignored with a reason.
    public var files: [TakeoutFileOutcome] = []
}

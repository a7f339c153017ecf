/// The commands that run in `livepair-media` (they decode, encode or open a library), as
/// `livepair` lists them without linking them: name and one-line abstract, in help order.
/// Each media command's `abstract` is the entry here, so the two never differ.
public enum MediaCommandCatalog {
    /// `livepair preview`.
    public static let preview = "Load a Live Photo: write its placeholder and poster, and time each result."
    /// `livepair make`.
    public static let make = "Make a Live Photo pair from a still and a movie, or from a movie alone."
    /// `livepair restamp`.
    public static let restamp = "Give both halves of a Live Photo a fresh content identifier."
    /// `livepair convert`.
    public static let convert = "Convert a Live Photo to an Android motion photo, or a motion photo to a Live Photo."
    /// `livepair edit`.
    public static let edit = "Render a Live Photo edit (key photo, trim, mute, Loop, Bounce, Long Exposure) beside it."
    /// `livepair library`.
    public static let library = "Create a library or its catalog, manage its assets, settle pending halves."
    /// `livepair import`.
    public static let `import` = "Import Live Photo halves, motion photos and single files into a library."
    /// `livepair migrate`.
    public static let migrate = "Rewrite an export folder for Apple Photos, Google Photos or a plain folder in one step."

    /// `livepair serve`.
    public static let serve = "Serve a library over HTTP: uploads, assets, Live Photo derivatives and a web page."

    /// Every media command's name and abstract, in help order.
    static let entries: [(name: String, abstract: String)] = [
        ("preview", preview), ("make", make), ("restamp", restamp), ("convert", convert), ("edit", edit),
        ("library", library),
        ("import", `import`), ("migrate", migrate), ("serve", serve),
    ]

    /// True when `name` is one of the media commands.
    static func contains(_ name: String) -> Bool { entries.contains { $0.name == name } }
}

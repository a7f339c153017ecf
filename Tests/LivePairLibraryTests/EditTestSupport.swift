import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

/// The edited sample groups (IMG_3582: a Live Photo with its render and `.AAE`; IMG_1853: a photo
/// with its `IMG_E1853` render and `.AAE`) and the library setup the edit tests share
/// (`EditTests`, `ContentEditingInputTests`).
enum EditSamples {
    /// SHA-256 prefixes of the sample files (SampleMedia/manifest.tsv).
    enum Digest {
        static let original1853 = "8e6fac35b135"
        static let render1853 = "51b3f4cc9159"
        static let aae1853 = "d959f64c9291"
        static let still3582 = "83d445478eff"
        static let movie3582 = "7216736b9abb"
        static let renderStill3582 = "98f96704ea2d"
        static let renderMovie3582 = "339897936a9e"
        static let aae3582 = "9e0333e0deca"
    }

    /// The IMG_3582 edit as Photos exports it (the render renamed `IMG_E3582.*`) or as the sample
    /// names it (`IMG_3582_edited.*`): (file, name uploaded with).
    static func group3582(exportNames: Bool) -> [(String, String)] {
        [
            ("live/IMG_3582.HEIC", "IMG_3582.HEIC"), ("live/IMG_3582.mov", "IMG_3582.mov"),
            ("live/IMG_3582_edited.heic", exportNames ? "IMG_E3582.HEIC" : "IMG_3582_edited.heic"),
            ("live/IMG_3582_edited.mov", exportNames ? "IMG_E3582.MOV" : "IMG_3582_edited.mov"),
            ("live/IMG_3582.AAE", "IMG_3582.AAE"),
        ]
    }

    /// The IMG_1853 edit: (file, name uploaded with).
    static let group1853 = [
        ("live/IMG_1853.HEIC", "IMG_1853.HEIC"), ("live/IMG_E1853.heic", "IMG_E1853.heic"), ("live/IMG_1853.AAE", "IMG_1853.AAE"),
    ]

    /// `type:digest-prefix` of each resource, sorted.
    static func kinds(_ resources: [LibraryAssetResource]) -> [String] {
        resources.map { "\($0.type.rawValue):\($0.digest.hex.prefix(12))" }.sorted()
    }

    /// Uploads the (file, name) pairs of `group` through `ingestor`, for `owner` in `folder`.
    static func ingest(_ group: some Sequence<(String, String)>, with ingestor: Ingestor, owner: String = "owner", folder: String) throws {
        for (file, name) in group {
            _ = try ingestor.ingest(fileAt: SampleMedia.path(file), owner: owner, originalFilename: name, folder: folder)
        }
    }

    /// The asset `identifier` of `library`.
    static func asset(_ identifier: String, in library: PhotoLibrary) throws -> Asset {
        try #require(try library.fetchAssets(withLocalIdentifiers: [identifier]).firstObject)
    }

    /// Settles the uploads waiting in `ingestor` alone (a still whose movie never came) and returns
    /// the first asset made: its identifier and itself.
    static func settleAlone(_ ingestor: Ingestor, in library: PhotoLibrary) throws -> (identifier: String, asset: Asset) {
        let settled = try ingestor.importPendingAlone(try ingestor.pendingUploads(olderThan: 0))
        let identifier = try #require(settled.first?.localIdentifier)
        return (identifier, try asset(identifier, in: library))
    }

    /// The unedited IMG_3582 Live Photo created in `library` (`creationRequestForAsset`): its
    /// identifier and the asset.
    static func createLivePhoto3582(in library: PhotoLibrary) throws -> (identifier: String, asset: Asset) {
        let created = try library.performChangesAndWait { context in
            let request = context.creationRequestForAsset()
            request.addResource(with: .photo, path: SampleMedia.path("live/IMG_3582.HEIC"))
            request.addResource(with: .pairedVideo, path: SampleMedia.path("live/IMG_3582.mov"))
        }
        let identifier = created.assets[0].localIdentifier
        return (identifier, try asset(identifier, in: library))
    }
}

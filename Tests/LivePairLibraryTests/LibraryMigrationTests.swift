import Foundation
@testable import LivePairLibrary
import TestSupport
import Testing

/// `LibraryMigration` from a directory library into a PostgreSQL catalog: what the CLI test cannot
/// make (albums, favourites, hidden assets) arrives unchanged, in the same order; a second run
/// copies nothing; a target of another source, or one holding assets of its own, is refused.
@Suite("library migration: albums, flags and order; resumable; one source per target")
struct LibraryMigrationTests {
    /// A directory library with three Live Photos: the second a favourite, the third hidden, and
    /// two albums ("Trip" holding the third and the first, in that order, and an empty one).
    static func source() throws -> PhotoLibrary {
        let library = try makeLibrary(.sqlite)
        for pair in [SamplePairs.iPhone15, SamplePairs.train, SamplePairs.photosLibrary] { try importPair(pair, into: library) }
        let ids = try allAssets(library).map(\.localIdentifier)
        let assets = try allAssets(library)
        try library.performChangesAndWait { context in
            context.changeRequest(for: assets[1]).isFavorite = true
            context.changeRequest(for: assets[2]).isHidden = true
            context.creationRequestForAssetCollection(withTitle: "Trip").addAssets(withLocalIdentifiers: [ids[2], ids[0]])
            _ = context.creationRequestForAssetCollection(withTitle: "Empty")
        }
        return library
    }

    static func allAssets(_ library: PhotoLibrary) throws -> [Asset] {
        Array(try library.fetchAssets(with: FetchOptions(includeHiddenAssets: true)))
    }

    /// Albums as (identifier, title, member identifiers in album order).
    static func albums(_ library: PhotoLibrary) throws -> [String] {
        try Array(try library.fetchAssetCollections()).map { album in
            let members = try library.fetchAssets(in: album, options: FetchOptions(includeHiddenAssets: true)).map(\.localIdentifier)
            return "\(album.localIdentifier) \(album.title) \(members.joined(separator: ","))"
        }
    }

    static func newTarget() throws -> PhotoLibrary {
        let locations = try CatalogKind.postgres.newLocations()
        return try PhotoLibrary.open(catalog: locations.catalog, store: locations.store, create: true)
    }

    @Test("assets, resources, albums and flags arrive unchanged and in order; a second run copies nothing")
    func copiesEverything() throws {
        let source = try Self.source()
        let target = try Self.newTarget()
        let report = try LibraryMigration(from: source, to: target, batchSize: 2).run()
        #expect(report.assetsCopied == 3 && report.resourcesVerified == 6)
        #expect(report.albumsCopied == 2 && report.membershipsCopied == 2)

        let sourceAssets = try Self.allAssets(source), targetAssets = try Self.allAssets(target)
        #expect(targetAssets == sourceAssets)
        #expect(targetAssets.map(\.isFavorite) == [false, true, false] && targetAssets.map(\.isHidden) == [false, false, true])
        for asset in sourceAssets {
            #expect(try target.assetResources(for: asset) == source.assetResources(for: asset))
        }
        #expect(try Self.albums(target) == Self.albums(source))
        #expect(try Self.albums(target).first?.hasSuffix(" Trip \(sourceAssets[2].localIdentifier),\(sourceAssets[0].localIdentifier)") == true)

        let again = try LibraryMigration(from: source, to: target).run()
        #expect(again == LibraryMigration.Report(assetsAlreadyThere: 3))
        #expect(try Self.allAssets(target) == sourceAssets)
    }

    @Test("a target migrated from another library, or holding assets of its own, is refused and left as it was")
    func oneSourcePerTarget() throws {
        let target = try Self.newTarget()
        _ = try LibraryMigration(from: try Self.source(), to: target).run()
        let other = try makeLibrary(.sqlite)
        try importPair(SamplePairs.iPhone15Second, into: other)
        #expect {
            try LibraryMigration(from: other, to: target).run()
        } throws: { error in
            "\(error)".contains("the target is the migration of another library")
        }
        #expect(try Self.allAssets(target).count == 3)

        let own = try Self.newTarget()
        try importPair(SamplePairs.iPhone15Second, into: own)
        #expect {
            try LibraryMigration(from: try Self.source(), to: own).run()
        } throws: { error in
            "\(error)".contains("the target already holds assets")
        }
        #expect(try Self.allAssets(own).count == 1)
    }
}

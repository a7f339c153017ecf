import Foundation
import LivePair
@testable import LivePairLibrary
import LivePairPostgres
import LivePairSQLite
import TestSupport
import Testing

/// An asset's caption: none at first, set and cleared through `AssetChangeRequest`, kept by other
/// changes, and added to catalogs made before it existed.
@Test(arguments: CatalogKind.underTest) func captionIsSetKeptAndCleared(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let created = try importPair(SamplePairs.train, into: library, creationDate: date(10))
    let asset = try #require(try library.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject)
    #expect(asset.caption == nil)

    let caption = "Le train de 8 h, \"quai\" 2 — été"
    let before = try library.currentChangeSequence()
    try library.performChangesAndWait { context in context.changeRequest(for: asset).caption = caption }
    #expect(try library.currentChangeSequence() == before + 1)
    let captioned = try #require(try library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
    #expect(captioned.caption == caption)
    var expected = asset
    expected.caption = caption
    #expect(captioned == expected)

    try library.performChangesAndWait { context in context.changeRequest(for: captioned).isFavorite = true }
    let favourite = try #require(try library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject)
    #expect(favourite.caption == caption && favourite.isFavorite)

    try library.performChangesAndWait { context in context.changeRequest(for: favourite).caption = "" }
    #expect(try library.fetchAssets(withLocalIdentifiers: [asset.localIdentifier]).firstObject?.caption == nil)
}

/// A catalog at schema version 4 (before captions) gains the column when opened, and its assets
/// read with no caption.
@Test(arguments: CatalogKind.underTest) func olderCatalogGainsTheCaptionColumn(_ kind: CatalogKind) throws {
    let library = try makeLibrary(kind)
    let created = try importPair(SamplePairs.iPhone15, into: library, creationDate: date(20))
    let drop = "ALTER TABLE assets DROP COLUMN caption; ALTER TABLE asset_tombstones DROP COLUMN caption;"
    switch library.catalogLocation {
    case let .sqlite(path):
        let connection = try SQLiteConnection(path: path)
        try connection.access { (database: SQLiteDatabase) throws(SQLiteError) in
            try database.execute(drop + " PRAGMA user_version=4;")
        }
    case let .postgres(url):
        let connection = try PostgresConnection(url)
        try connection.executeScript(drop + " UPDATE catalog_state SET schema_version = 4;")
    }
    let reopened = try makeLibrary(kind, sharing: library)
    let asset = try #require(try reopened.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject)
    #expect(asset.caption == nil)
    try reopened.performChangesAndWait { context in context.changeRequest(for: asset).caption = "Platform 9" }
    #expect(try reopened.fetchAssets(withLocalIdentifiers: [created.localIdentifier]).firstObject?.caption == "Platform 9")
}

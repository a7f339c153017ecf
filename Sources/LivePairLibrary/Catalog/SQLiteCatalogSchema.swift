import Foundation
import LivePairSQLite

/// The catalog's tables, created and upgraded by numbered migrations. `PRAGMA user_version` holds
/// the number of migrations applied; a catalog with more than this build knows is refused.
enum SQLiteCatalogSchema {
    /// The migrations, oldest first; migration `n` brings the schema to version `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE assets(
            id TEXT PRIMARY KEY,
            media_type INTEGER NOT NULL,
            subtypes INTEGER NOT NULL DEFAULT 0,
            pixel_width INTEGER NOT NULL DEFAULT 0,
            pixel_height INTEGER NOT NULL DEFAULT 0,
            duration REAL NOT NULL DEFAULT 0,
            creation_date REAL,
            latitude REAL,
            longitude REAL,
            favorite INTEGER NOT NULL DEFAULT 0,
            hidden INTEGER NOT NULL DEFAULT 0,
            content_identifier TEXT,
            owner TEXT,
            added_date REAL NOT NULL
        );
        CREATE INDEX assets_creation_date ON assets(creation_date);
        CREATE INDEX assets_owner_content_identifier ON assets(owner, content_identifier);
        CREATE TABLE resources(
            asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            ordinal INTEGER NOT NULL,
            type TEXT NOT NULL,
            digest TEXT NOT NULL,
            size INTEGER NOT NULL,
            original_filename TEXT,
            uniform_type_identifier TEXT,
            PRIMARY KEY(asset_id, ordinal)
        );
        CREATE INDEX resources_digest ON resources(digest, type);
        CREATE TABLE collections(
            id TEXT PRIMARY KEY,
            title TEXT NOT NULL,
            creation_date REAL NOT NULL
        );
        CREATE TABLE collection_members(
            collection_id TEXT NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            PRIMARY KEY(collection_id, asset_id)
        );
        CREATE INDEX collection_members_position ON collection_members(collection_id, position);
        CREATE INDEX collection_members_asset ON collection_members(asset_id);
        CREATE TABLE change_log(
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            committed_at REAL NOT NULL,
            inserted_assets TEXT NOT NULL,
            updated_assets TEXT NOT NULL,
            deleted_assets TEXT NOT NULL,
            changed_collections TEXT NOT NULL
        );
        CREATE TABLE asset_tombstones(
            id TEXT PRIMARY KEY,
            media_type INTEGER NOT NULL,
            subtypes INTEGER NOT NULL,
            pixel_width INTEGER NOT NULL,
            pixel_height INTEGER NOT NULL,
            duration REAL NOT NULL,
            creation_date REAL,
            latitude REAL,
            longitude REAL,
            favorite INTEGER NOT NULL,
            hidden INTEGER NOT NULL,
            content_identifier TEXT,
            owner TEXT,
            added_date REAL NOT NULL,
            deleted_date REAL NOT NULL
        );
        CREATE TABLE records(
            namespace TEXT NOT NULL,
            key TEXT NOT NULL,
            lookup_key TEXT,
            digest TEXT,
            date REAL,
            payload BLOB NOT NULL,
            PRIMARY KEY(namespace, key)
        );
        CREATE INDEX records_lookup_key ON records(namespace, lookup_key);
        CREATE INDEX records_date ON records(namespace, date);
        CREATE INDEX records_digest ON records(digest);
        """,
        // Version 2: the library's identity (the resource store carries it too) and the file's
        // application id, so a catalog is recognised as LivePair's and as this library's.
        """
        CREATE TABLE library_identity(
            identity TEXT NOT NULL,
            created_at REAL NOT NULL
        );
        PRAGMA application_id=\(SQLiteCatalogHealth.applicationID);
        """,
        // Version 3: what validation flagged on an asset it accepted, and a Live Photo's still-image time
        // (the movie's own, or derived when it has none); see docs/ingestion.md.
        """
        ALTER TABLE assets ADD COLUMN still_image_time REAL;
        ALTER TABLE assets ADD COLUMN findings TEXT;
        ALTER TABLE asset_tombstones ADD COLUMN still_image_time REAL;
        ALTER TABLE asset_tombstones ADD COLUMN findings TEXT;
        """,
        // Derivative jobs: each accepted asset's placeholder, grid still and motion movie, queued in
        // the transaction that accepts it and made in the background (`DerivativeJob`); a job goes
        // with its asset.
        """
        CREATE TABLE derivative_jobs(
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            asset_id TEXT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            kind TEXT NOT NULL,
            state TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            node TEXT,
            claimed_at REAL,
            cause TEXT,
            UNIQUE(asset_id, kind)
        );
        CREATE INDEX derivative_jobs_state ON derivative_jobs(state, id);
        """,
        // Version 5: an asset's caption (its description: Google Photos' `description`, Photos'
        // caption), set by `AssetChangeRequest.caption` and by imports that carry one.
        """
        ALTER TABLE assets ADD COLUMN caption TEXT;
        ALTER TABLE asset_tombstones ADD COLUMN caption TEXT;
        """,
    ]

    /// The schema version this build writes.
    static var currentVersion: Int { migrations.count }

    /// Brings the catalog up to `currentVersion`, in one write transaction (safe when several
    /// processes open a library at once: the second finds the work done), and records the
    /// library's identity when it has none: `identity` for a new catalog, a new UUID for an
    /// older catalog being upgraded.
    static func migrate(_ database: SQLiteDatabase, identity: String?, busyTimeoutMilliseconds: Int32) throws(LibraryError) {
        let found: Int
        do throws(SQLiteError) {
            found = Int(try database.scalarInteger("PRAGMA user_version") ?? 0)
        } catch {
            throw .catalog(error)
        }
        if found == currentVersion { return }
        if found > currentVersion { throw .catalogTooNew(found: found, supported: currentVersion) }
        do throws(SQLiteError) {
            try database.begin(.immediate, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw .catalog(error)
        }
        do throws(LibraryError) {
            let version: Int
            do throws(SQLiteError) {
                version = Int(try database.scalarInteger("PRAGMA user_version") ?? 0)
            } catch {
                throw .catalog(error)
            }
            if version > currentVersion { throw .catalogTooNew(found: version, supported: currentVersion) }
            do throws(SQLiteError) {
                for migration in migrations.dropFirst(version) { try database.execute(migration) }
                if try database.scalarInteger("SELECT COUNT(*) FROM library_identity") == 0 {
                    try database.run(
                        "INSERT INTO library_identity(identity, created_at) VALUES (?, ?)",
                        [.text(identity ?? UUID().uuidString), .real(Date().timeIntervalSinceReferenceDate)])
                }
                try database.execute("PRAGMA user_version=\(currentVersion)")
                try database.commit(busyTimeoutMilliseconds: busyTimeoutMilliseconds)
            } catch {
                throw .catalog(error)
            }
        } catch {
            database.rollback()
            throw error
        }
    }
}

import Foundation
import LivePairPostgres

/// The PostgreSQL catalog's tables, created and upgraded by numbered migrations. The row of
/// `catalog_state` holds the number of migrations applied (and the change-log counter); a catalog
/// with more than this build knows is refused with both versions named.
///
/// Original filenames are kept as UTF-8 bytes (`BYTEA`: a name is data, and may hold a NUL,
/// which PostgreSQL text cannot). Text columns compare byte by byte (`COLLATE "C"`), as SQLite's do.
///
/// The tables live in the connection's current schema (the first of its `search_path`), so several
/// catalogs can share a database, one per schema.
enum PostgresCatalogSchema {
    /// The migrations, oldest first; migration `n` brings the schema to version `n + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE catalog_state(
            id INTEGER PRIMARY KEY CHECK (id = 1),
            schema_version INTEGER NOT NULL,
            change_sequence BIGINT NOT NULL
        );
        INSERT INTO catalog_state(id, schema_version, change_sequence) VALUES (1, 0, 0);
        CREATE TABLE assets(
            id TEXT COLLATE "C" PRIMARY KEY,
            row_order BIGSERIAL NOT NULL,
            media_type BIGINT NOT NULL,
            subtypes BIGINT NOT NULL DEFAULT 0,
            pixel_width BIGINT NOT NULL DEFAULT 0,
            pixel_height BIGINT NOT NULL DEFAULT 0,
            duration DOUBLE PRECISION NOT NULL DEFAULT 0,
            creation_date DOUBLE PRECISION,
            latitude DOUBLE PRECISION,
            longitude DOUBLE PRECISION,
            favorite BIGINT NOT NULL DEFAULT 0,
            hidden BIGINT NOT NULL DEFAULT 0,
            content_identifier TEXT COLLATE "C",
            owner TEXT COLLATE "C",
            added_date DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX assets_row_order ON assets(row_order);
        CREATE INDEX assets_creation_date ON assets(creation_date);
        CREATE INDEX assets_owner_content_identifier ON assets(owner, content_identifier);
        CREATE TABLE resources(
            asset_id TEXT COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            ordinal BIGINT NOT NULL,
            type TEXT COLLATE "C" NOT NULL,
            digest TEXT COLLATE "C" NOT NULL,
            size BIGINT NOT NULL,
            original_filename BYTEA,
            uniform_type_identifier TEXT COLLATE "C",
            PRIMARY KEY(asset_id, ordinal)
        );
        CREATE INDEX resources_digest ON resources(digest, type);
        CREATE TABLE collections(
            id TEXT COLLATE "C" PRIMARY KEY,
            row_order BIGSERIAL NOT NULL,
            title TEXT COLLATE "C" NOT NULL,
            creation_date DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE collection_members(
            collection_id TEXT COLLATE "C" NOT NULL REFERENCES collections(id) ON DELETE CASCADE,
            asset_id TEXT COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            position BIGINT NOT NULL,
            PRIMARY KEY(collection_id, asset_id)
        );
        CREATE INDEX collection_members_position ON collection_members(collection_id, position);
        CREATE INDEX collection_members_asset ON collection_members(asset_id);
        CREATE TABLE change_log(
            sequence BIGINT PRIMARY KEY,
            committed_at DOUBLE PRECISION NOT NULL,
            inserted_assets TEXT COLLATE "C" NOT NULL,
            updated_assets TEXT COLLATE "C" NOT NULL,
            deleted_assets TEXT COLLATE "C" NOT NULL,
            changed_collections TEXT COLLATE "C" NOT NULL
        );
        CREATE TABLE asset_tombstones(
            id TEXT COLLATE "C" PRIMARY KEY,
            media_type BIGINT NOT NULL,
            subtypes BIGINT NOT NULL,
            pixel_width BIGINT NOT NULL,
            pixel_height BIGINT NOT NULL,
            duration DOUBLE PRECISION NOT NULL,
            creation_date DOUBLE PRECISION,
            latitude DOUBLE PRECISION,
            longitude DOUBLE PRECISION,
            favorite BIGINT NOT NULL,
            hidden BIGINT NOT NULL,
            content_identifier TEXT COLLATE "C",
            owner TEXT COLLATE "C",
            added_date DOUBLE PRECISION NOT NULL,
            deleted_date DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE records(
            namespace TEXT COLLATE "C" NOT NULL,
            key TEXT COLLATE "C" NOT NULL,
            lookup_key TEXT COLLATE "C",
            digest TEXT COLLATE "C",
            date DOUBLE PRECISION,
            payload BYTEA NOT NULL,
            PRIMARY KEY(namespace, key)
        );
        CREATE INDEX records_lookup_key ON records(namespace, lookup_key);
        CREATE INDEX records_date ON records(namespace, date);
        CREATE INDEX records_digest ON records(digest);
        """,
        // Version 2: the identity of the library the catalog belongs to (its resource store carries
        // the same in its marker), as SQLite's migration 2.
        """
        CREATE TABLE library_identity(
            identity TEXT COLLATE "C" NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        );
        """,
        // Version 3: what validation flagged on an asset it accepted (JSON, `AssetFindingsJSON`), and a
        // Live Photo's still-image time, as SQLite's migration 3.
        """
        ALTER TABLE assets ADD COLUMN still_image_time DOUBLE PRECISION;
        ALTER TABLE assets ADD COLUMN findings TEXT COLLATE "C";
        ALTER TABLE asset_tombstones ADD COLUMN still_image_time DOUBLE PRECISION;
        ALTER TABLE asset_tombstones ADD COLUMN findings TEXT COLLATE "C";
        """,
        // Derivative jobs, as SQLite's migration of the same name; nodes claim them with
        // `FOR UPDATE SKIP LOCKED` (`PostgresCatalogSession+DerivativeJobs`).
        """
        CREATE TABLE derivative_jobs(
            id BIGSERIAL PRIMARY KEY,
            asset_id TEXT COLLATE "C" NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
            kind TEXT COLLATE "C" NOT NULL,
            state TEXT COLLATE "C" NOT NULL,
            attempts BIGINT NOT NULL DEFAULT 0,
            node TEXT COLLATE "C",
            claimed_at DOUBLE PRECISION,
            cause TEXT COLLATE "C",
            UNIQUE(asset_id, kind)
        );
        CREATE INDEX derivative_jobs_state ON derivative_jobs(state, id);
        """,
        // An asset's caption, as SQLite's migration of the same name.
        """
        ALTER TABLE assets ADD COLUMN caption TEXT COLLATE "C";
        ALTER TABLE asset_tombstones ADD COLUMN caption TEXT COLLATE "C";
        """,
    ]

    /// The schema version this build writes.
    static var currentVersion: Int { migrations.count }

    /// The version the catalog in the connection's schema has (0 when it has none yet).
    static func version(_ connection: PostgresConnection) throws(PostgresError) -> Int {
        let exists = try connection.execute("SELECT to_regclass('catalog_state') IS NOT NULL").scalar
        guard exists == .bool(true) else { return 0 }
        guard case let .integer(version) = try connection.execute("SELECT schema_version FROM catalog_state WHERE id = 1").scalar
        else { return 0 }
        return Int(version)
    }

    /// Opens the catalog found at version `found` as `opening` says: `.existing` refuses a missing
    /// catalog (pointing at `livepair library init`) and a newer one, and upgrades an older one
    /// when read-write (read-only, nothing is written); `.new(identity)` creates it. The upgrade is
    /// one transaction holding an advisory lock for the schema, so nodes opening at once do the work
    /// once, and records the library's identity when the catalog has none: the new one's, or a new
    /// UUID for an older catalog being upgraded.
    static func migrate(_ connection: PostgresConnection, found: Int, opening: CatalogOpening) throws(LibraryError) {
        if found > currentVersion { throw .catalogTooNew(found: found, supported: currentVersion) }
        var identity: String?
        switch opening {
        case let .existing(access):
            guard found > 0 else {
                throw .invalidRequest(
                    "the PostgreSQL database has no LivePair catalog (this LivePair writes schema version \(currentVersion)): run `livepair library init` first")
            }
            if found == currentVersion || access == .readOnly { return }
        case let .new(newIdentity):
            identity = newIdentity
        }
        try connection.transaction(.readCommitted, wrap: LibraryError.catalogServer) { () throws(LibraryError) in
            let version: Int
            do throws(PostgresError) {
                try connection.execute("SELECT pg_advisory_xact_lock(hashtext(current_schema() || '.livepair-migrate'))")
                version = try Self.version(connection)
            } catch {
                throw .catalogServer(error)
            }
            if version > currentVersion { throw .catalogTooNew(found: version, supported: currentVersion) }
            do throws(PostgresError) {
                for migration in migrations.dropFirst(version) { try connection.executeScript(migration) }
                try connection.execute("UPDATE catalog_state SET schema_version = $1 WHERE id = 1", [.integer(Int64(currentVersion))])
                if try connection.execute("SELECT count(*) FROM library_identity").scalar == .integer(0) {
                    try connection.execute(
                        "INSERT INTO library_identity(identity, created_at) VALUES ($1, $2)",
                        [.text(identity ?? UUID().uuidString), .real(Date().timeIntervalSinceReferenceDate)])
                }
            } catch {
                throw .catalogServer(error)
            }
        }
    }
}

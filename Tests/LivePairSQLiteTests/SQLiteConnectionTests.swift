import Foundation
import LivePairSQLite
import Testing

/// A fresh database path in a temporary directory.
private func temporaryDatabase() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.appendingPathComponent("test.sqlite").path
}

@Test func linksSQLite3() {
    #expect(sqliteLibraryVersion.hasPrefix("3."))
}

@Test func opensInWALModeWithForeignKeysAndFullSync() throws {
    let connection = try SQLiteConnection(path: try temporaryDatabase())
    try connection.access { (database: SQLiteDatabase) throws(SQLiteError) in
        #expect(try database.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try database.scalarInteger("PRAGMA foreign_keys") == 1)
        #expect(try database.scalarInteger("PRAGMA synchronous") == 2)  // FULL
        #expect(try database.scalarInteger("PRAGMA busy_timeout") == 10_000)
    }
}

@Test func bindsAndReadsEveryStorageClass() throws {
    let connection = try SQLiteConnection(path: try temporaryDatabase())
    try connection.access { (database: SQLiteDatabase) throws(SQLiteError) in
        try database.execute("CREATE TABLE t(i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
        let text = "a\u{0}b ../é"
        try database.run(
            "INSERT INTO t VALUES (?, ?, ?, ?, ?)",
            [.integer(Int64.min), .real(1.5), .text(text), .blob([0, 1, 255]), .null])
        let statement = try database.prepare("SELECT i, r, s, b, n FROM t")
        #expect(try statement.step())
        #expect(statement.int64(0) == Int64.min)
        #expect(statement.double(1) == 1.5)
        #expect(statement.string(2) == text)
        #expect(statement.blob(3) == [0, 1, 255])
        #expect(statement.isNull(4))
        #expect(statement.optionalString(4) == nil)
        #expect(statement.value(0) == .integer(Int64.min))
        #expect(try statement.step() == false)
        statement.reset()
        #expect(try statement.step())
    }
}

@Test func reportsErrorsWithCodeMessageAndStatement() throws {
    let connection = try SQLiteConnection(path: try temporaryDatabase())
    #expect(throws: SQLiteError.self) {
        try connection.access { (database: SQLiteDatabase) throws(SQLiteError) in try database.execute("SELEC 1") }
    }
    do {
        try connection.access { (database: SQLiteDatabase) throws(SQLiteError) in
            try database.execute("CREATE TABLE u(k TEXT PRIMARY KEY)")
            try database.run("INSERT INTO u VALUES ('x')")
            try database.run("INSERT INTO u VALUES ('x')")
        }
        Issue.record("a duplicate key was accepted")
    } catch {
        #expect(error.isConstraintViolation)
        #expect(error.message.contains("UNIQUE"))
        #expect(error.sql == "INSERT INTO u VALUES ('x')")
    }
}

@Test func transactionRollsBackWhenTheBodyThrows() throws {
    let connection = try SQLiteConnection(path: try temporaryDatabase())
    try connection.access { (database: SQLiteDatabase) throws(SQLiteError) in
        try database.execute("CREATE TABLE t(v INTEGER)")
        try database.transaction { () throws(SQLiteError) in try database.run("INSERT INTO t VALUES (1)") }
        #expect(throws: SQLiteError.self) {
            try database.transaction { () throws(SQLiteError) in
                try database.run("INSERT INTO t VALUES (2)")
                try database.execute("NOT SQL")
            }
        }
        #expect(!database.isInTransaction)
        #expect(try database.scalarInteger("SELECT COUNT(*) FROM t") == 1)
    }
}

@Test func secondConnectionWaitsForTheWriterThenWrites() throws {
    let path = try temporaryDatabase()
    let first = try SQLiteConnection(path: path)
    let second = try SQLiteConnection(path: path, options: SQLiteConnectionOptions(busyTimeoutMilliseconds: 5_000))
    try first.access { (database: SQLiteDatabase) throws(SQLiteError) in try database.execute("CREATE TABLE t(v INTEGER)") }
    let released = DispatchSemaphore(value: 0)
    try first.access { (database: SQLiteDatabase) throws(SQLiteError) in
        try database.begin(.immediate)
        try database.run("INSERT INTO t VALUES (1)")
    }
    let thread = Thread {
        Thread.sleep(forTimeInterval: 0.2)
        try? first.access { (database: SQLiteDatabase) throws(SQLiteError) in try database.commit() }
        released.signal()
    }
    thread.start()
    // BEGIN IMMEDIATE on the second connection waits for the first commit, then succeeds.
    try second.access { (database: SQLiteDatabase) throws(SQLiteError) in
        try database.transaction(.immediate) { () throws(SQLiteError) in try database.run("INSERT INTO t VALUES (2)") }
        #expect(try database.scalarInteger("SELECT COUNT(*) FROM t") == 2)
    }
    released.wait()
}

@Test func busyWriterTimesOutWithBusyError() throws {
    let path = try temporaryDatabase()
    let first = try SQLiteConnection(path: path)
    let second = try SQLiteConnection(path: path, options: SQLiteConnectionOptions(busyTimeoutMilliseconds: 100))
    try first.access { (database: SQLiteDatabase) throws(SQLiteError) in
        try database.execute("CREATE TABLE t(v INTEGER)")
        try database.begin(.immediate)
    }
    do {
        try second.access { (database: SQLiteDatabase) throws(SQLiteError) in
            try database.begin(.immediate, busyTimeoutMilliseconds: 100)
        }
        Issue.record("the second writer did not wait")
    } catch {
        #expect(error.isBusy)
    }
    try first.access { (database: SQLiteDatabase) throws(SQLiteError) in try database.commit() }
}

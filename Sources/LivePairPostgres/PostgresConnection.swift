import CPostgres
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One libpq connection. libpq is thread-safe per connection: every call here holds the
/// connection's mutex, so a connection may be handed between threads (a `PostgresPool` gives each
/// user its own).
public final class PostgresConnection: Sendable {
    private let lock = Mutex(())
    /// Set once a statement failed because the connection was lost, even when libpq still reports
    /// the connection as OK (an immediate server shutdown can end a statement with "server closed
    /// the connection unexpectedly" before the status changes): the pool then drops it.
    private let broken = Atomic<Bool>(false)
    /// The raw handle, owned by this connection; only used while `lock` is held (or in `deinit`).
    nonisolated(unsafe) private let handle: OpaquePointer
    /// The URI or key=value string it was opened with (PG* environment variables fill what it leaves out).
    public let connectionString: String

    /// Opens a connection. `connectionString` is any libpq URI (`postgresql://user@/db?host=/run/pg`)
    /// or key=value list; libpq reads `PGHOST`, `PGUSER`, `PGPASSWORD`, ... for what it leaves out.
    /// `defaults` are libpq keywords and values (`connect_timeout`, `keepalives_idle`, ...) that
    /// hold unless the connection string sets them (it is expanded after them, so it wins).
    public init(_ connectionString: String, defaults: [(keyword: String, value: String)] = []) throws(PostgresError) {
        let keywords = defaults.map(\.keyword) + ["dbname"]
        let values = defaults.map(\.value) + [connectionString]
        let opened = Self.withCStrings(keywords) { keywords in
            Self.withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) }
        }
        guard let handle = opened else {
            throw PostgresError(kind: .connection, message: "libpq could not allocate a connection")
        }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = Self.message(handle)
            PQfinish(handle)
            throw PostgresError(kind: .connection, message: message)
        }
        // Notices (for example "already exists, skipping") are not errors: keep them off stderr.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        self.handle = handle
        self.connectionString = connectionString
    }

    deinit { PQfinish(handle) }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<Result>(
        _ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> Result
    ) -> Result {
        let copies = strings.map { strdup($0) }
        defer { for copy in copies { free(copy) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    private static func message(_ handle: OpaquePointer) -> String {
        String(cString: PQerrorMessage(handle)).trimmingTrailingNewlines
    }

    /// True while the connection is usable (false once the server or the socket went away).
    public var isOpen: Bool { lock.withLock { _ in !broken.load(ordering: .relaxed) && PQstatus(handle) == CONNECTION_OK } }

    /// Runs one statement with `parameters` bound to `$1`, `$2`, ... (sent apart from the text) and
    /// returns its rows.
    @discardableResult
    public func execute(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresRows {
        for (index, parameter) in parameters.enumerated() {
            if case let .text(text) = parameter, text.utf8.contains(0) {
                throw PostgresError(
                    kind: .statement, sqlState: "22021",
                    message: "text parameter $\(index + 1) holds a NUL character, which PostgreSQL text cannot store", sql: sql)
            }
        }
        return try lock.withLock { _ throws(PostgresError) -> PostgresRows in
            let wire = parameters.map(PostgresWireFormat.parameter)
            var buffer: [UInt8] = []
            var offsets: [Int?] = []
            for parameter in wire {
                guard let bytes = parameter.bytes else {
                    offsets.append(nil)
                    continue
                }
                offsets.append(buffer.count)
                buffer += bytes
                if !parameter.isBinary { buffer.append(0) }
            }
            buffer.append(0)  // never empty, so an empty binary value still has an address (not NULL)
            let types = wire.map(\.type)
            let lengths = wire.map { Int32($0.bytes?.count ?? 0) }
            let formats = wire.map { Int32($0.isBinary ? 1 : 0) }
            let result = buffer.withUnsafeBytes { raw -> OpaquePointer? in
                let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self)
                let values: [UnsafePointer<CChar>?] = offsets.map { offset in
                    offset.flatMap { offset in base.map { UnsafePointer($0 + offset) } }
                }
                return PQexecParams(handle, sql, Int32(parameters.count), types, values, lengths, formats, 0)
            }
            return try rows(of: result, sql: sql)
        }
    }

    /// Runs `sql`, which may hold several statements and no parameters (schema migrations).
    public func executeScript(_ sql: String) throws(PostgresError) {
        try lock.withLock { _ throws(PostgresError) in
            _ = try rows(of: PQexec(handle, sql), sql: sql)
        }
    }

    /// Copies `result` out of libpq (and frees it), or throws the error it reports.
    private func rows(of result: OpaquePointer?, sql: String) throws(PostgresError) -> PostgresRows {
        guard let result else {
            broken.store(true, ordering: .relaxed)
            throw PostgresError(kind: .connection, message: Self.message(handle), sql: sql)
        }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK else {
            let state = PQresultErrorField(result, livepair_pg_diag_sqlstate()).map { String(cString: $0) }
            let primary = PQresultErrorField(result, livepair_pg_diag_message_primary()).map { String(cString: $0) }
            let message = primary ?? String(cString: PQresultErrorMessage(result)).trimmingTrailingNewlines
            // The server sends a SQLSTATE with every error it reports; an error without one was
            // raised by libpq itself: the connection failed (lost, closed, unreadable).
            let lost = PQstatus(handle) != CONNECTION_OK || state == nil
            if lost { broken.store(true, ordering: .relaxed) }
            throw PostgresError(
                kind: lost ? .connection : .statement, sqlState: state,
                message: message.isEmpty ? Self.message(handle) : message, sql: sql)
        }
        let columnCount = Int(PQnfields(result))
        let rowCount = Int(PQntuples(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        var rows: [PostgresRow] = []
        rows.reserveCapacity(rowCount)
        for row in 0..<Int32(rowCount) {
            var values: [PostgresValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<Int32(columnCount) {
                if PQgetisnull(result, row, column) != 0 {
                    values.append(.null)
                } else {
                    let text = String(cString: PQgetvalue(result, row, column))
                    values.append(try PostgresWireFormat.value(text: text, type: types[Int(column)]))
                }
            }
            rows.append(PostgresRow(values: values))
        }
        let affected = Int(String(cString: PQcmdTuples(result))) ?? 0
        return PostgresRows(columns: columns, rows: rows, affectedRows: affected)
    }

    /// The notifications that arrived (for channels this connection `LISTEN`s to), waiting up to
    /// `timeoutMilliseconds` for the first one; empty when none came in time.
    public func notifications(timeoutMilliseconds: Int32) throws(PostgresError) -> [PostgresNotification] {
        try lock.withLock { _ throws(PostgresError) -> [PostgresNotification] in
            var received = try drainNotifications()
            if !received.isEmpty { return received }
            let socket = PQsocket(handle)
            guard socket >= 0 else { throw PostgresError(kind: .connection, message: Self.message(handle)) }
            guard PostgresSocket.waitReadable(socket, timeoutMilliseconds: timeoutMilliseconds) else { return [] }
            received = try drainNotifications()
            return received
        }
    }

    private func drainNotifications() throws(PostgresError) -> [PostgresNotification] {
        guard PQconsumeInput(handle) == 1 else { throw PostgresError(kind: .connection, message: Self.message(handle)) }
        var received: [PostgresNotification] = []
        while let notify = PQnotifies(handle) {
            received.append(
                PostgresNotification(
                    channel: String(cString: notify.pointee.relname), payload: String(cString: notify.pointee.extra),
                    processID: notify.pointee.be_pid))
            PQfreemem(notify)
        }
        return received
    }
}

/// A `NOTIFY` this connection heard.
public struct PostgresNotification: Sendable, Equatable {
    /// The channel.
    public var channel: String
    /// The payload ("" when none).
    public var payload: String
    /// The server process that sent it.
    public var processID: Int32
}

extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}

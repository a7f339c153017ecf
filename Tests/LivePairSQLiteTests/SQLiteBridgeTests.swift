import LivePairSQLite
import Testing

@Test func linksSQLite3() {
    #expect(sqliteLibraryVersion.hasPrefix("3."))
}

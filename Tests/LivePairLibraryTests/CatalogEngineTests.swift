import LivePairLibrary
import Testing

@Test func catalogEngineIsSQLite() {
    #expect(catalogEngineVersion.hasPrefix("SQLite 3."))
}

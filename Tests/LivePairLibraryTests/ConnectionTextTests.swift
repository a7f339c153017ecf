import LivePairLibrary
import Testing

/// Passwords hidden in every form a catalog, store or endpoint may carry them.
@Suite struct ConnectionTextTests {
    @Test func redactionOfEveryForm() {
        #expect(ConnectionText.redacted("postgresql://u:pa:ss@h/db?x=1") == "postgresql://u:***@h/db?x=1")
        #expect(ConnectionText.redacted("postgres://u@/db?host=/s&password=sec&sslmode=off") == "postgres://u@/db?host=/s&password=***&sslmode=off")
        #expect(ConnectionText.redacted("host=/s dbname=d PASSWORD = 'se cr\\'et' user=u") == "host=/s dbname=d PASSWORD =*** user=u")
        #expect(ConnectionText.redacted("http://key:secret@127.0.0.1:1") == "http://key:***@127.0.0.1:1")
        #expect(ConnectionText.redacted("/srv/photos/catalog.sqlite") == "/srv/photos/catalog.sqlite")
        #expect(ConnectionText.isKeywordValueConnectionString("host=/run/pg dbname=photos"))
        #expect(!ConnectionText.isKeywordValueConnectionString("/srv/a=b.sqlite"))
    }
}

import Testing

@testable import LivePairLibrary

/// `LIVEPAIR_CATALOG_RETRY_SECONDS`: how long a server catalog's transaction is tried again after
/// a lost connection (`LibraryConfiguration.catalogRetrySeconds`, docs/deployment.md).
@Suite struct CatalogRetryEnvironmentTests {
    @Test("a number of seconds at least 0 sets it; anything else leaves the default, 30")
    func readFromTheEnvironment() {
        let name = "LIVEPAIR_CATALOG_RETRY_SECONDS"
        #expect(LibraryConfiguration.catalogRetrySeconds(in: [:]) == 30)
        #expect(LibraryConfiguration.catalogRetrySeconds(in: [name: "5"]) == 5)
        #expect(LibraryConfiguration.catalogRetrySeconds(in: [name: "0"]) == 0)
        #expect(LibraryConfiguration.catalogRetrySeconds(in: [name: "2.5"]) == 2.5)
        for text in ["-1", "soon", "", "inf", "nan"] {
            #expect(LibraryConfiguration.catalogRetrySeconds(in: [name: text]) == 30, "\(text)")
        }
    }
}

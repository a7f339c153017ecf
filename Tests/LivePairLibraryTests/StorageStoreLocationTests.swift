import LivePairLibrary
import Testing

/// `--store` / `LIVEPAIR_STORE` locations.
@Suite struct StorageStoreLocationTests {
    @Test func s3LocationsNameABucketAndAPrefix() throws {
        #expect(try StoreLocation("s3://photos/library") == .s3(bucket: "photos", prefix: "library/"))
        #expect(try StoreLocation("s3://photos/a/b/") == .s3(bucket: "photos", prefix: "a/b/"))
        #expect(try StoreLocation("s3://photos") == .s3(bucket: "photos", prefix: ""))
        #expect(try StoreLocation("s3://photos/library").description == "s3://photos/library/")
    }

    @Test func directoriesArePathsOrFileURLs() throws {
        #expect(try StoreLocation("/srv/photos/resources") == .directory("/srv/photos/resources"))
        #expect(try StoreLocation("file:///srv/photos") == .directory("/srv/photos"))
        #expect(try StoreLocation("relative/dir") == .directory("relative/dir"))
    }

    @Test func malformedLocationsAreUsageErrors() {
        for text in ["s3://", "s3://Bad_Bucket/x", "s3://ab/x", "gs://bucket/x", ""] {
            #expect {
                _ = try StoreLocation(text)
            } throws: { error in
                guard case .invalid(let given, _) = error as? StoreLocationError else { return false }
                return given == text
            }
        }
    }

    @Test func anS3LocationNeedsAnEndpoint() throws {
        let location = try StoreLocation("s3://photos/library")
        #expect {
            _ = try location.open(s3Endpoint: nil, cacheDirectory: "/tmp")
        } throws: { error in
            (error as? StoreLocationError)?.description.contains("--s3-endpoint") == true
        }
    }
}

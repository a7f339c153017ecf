import LivePairS3
import Testing
import TestSupport

/// ListObjectsV2: prefixes, pages and continuation tokens.
@Suite struct S3ClientListTests {
    @Test func aListingFollowsContinuationTokensAndKeepsToItsPrefix() throws {
        let (client, bucket) = try S3TestClient.withBucket("list")
        var expected: [String: UInt64] = [:]
        for index in 0..<7 {
            let key = "resources/\(String(repeating: "ab", count: index + 1))/item+\(index)=x"
            let body = [UInt8](repeating: UInt8(index), count: index * 100)
            try client.put(bucket: bucket, key: key, body: .bytes(body))
            expected[key] = UInt64(body.count)
        }
        try client.put(bucket: bucket, key: "other/outside", body: .bytes([1]))

        let first = try client.listPage(bucket: bucket, prefix: "resources/", maximumKeys: 3)
        #expect(first.objects.count == 3)
        let token = try #require(first.continuationToken)
        let second = try client.listPage(bucket: bucket, prefix: "resources/", continuationToken: token, maximumKeys: 3)
        #expect(second.objects.count == 3)
        #expect(second.objects.first.map(\.key)! > first.objects.last.map(\.key)!)

        let all = try client.list(bucket: bucket, prefix: "resources/")
        #expect(all.map(\.key) == expected.keys.sorted())
        #expect(Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0.size) }) == expected)
        #expect(all.allSatisfy { $0.lastModified != nil })
        #expect(try client.list(bucket: bucket).count == 8)
        #expect(try client.list(bucket: bucket, prefix: "nothing-here/").isEmpty)
    }
}

import Foundation
import Testing
import TestSupport

/// No password is ever printed: every command that echoes a catalog or a store, in its output and
/// its errors, with the password in a URL's user-info, a `password=` query argument, a libpq
/// `key=value` string, or an S3 endpoint's user-info.
@Suite struct PasswordRedactionTests {
    @Test func noCommandPrintsAPassword() throws {
        let base = try PostgresTestServer.freshSchemaURL()  // postgresql://postgres@/livepair?host=DIR&port=N&options=-csearch_path%3DSCHEMA
        let components = try #require(URLComponents(string: base))
        let socket = try #require(components.queryItems?.first { $0.name == "host" }?.value)
        let options = try #require(components.queryItems?.first { $0.name == "options" }?.value)
        let port = components.queryItems?.first { $0.name == "port" }?.value ?? "5432"
        let catalogs = [
            ("SECRET-USERINFO", base.replacingOccurrences(of: "postgresql://postgres@", with: "postgresql://postgres:SECRET-USERINFO@")),
            ("SECRET-QUERY", base + "&password=SECRET-QUERY"),
            ("SECRET-KEYVALUE", "host=\(socket) port=\(port) dbname=livepair user=postgres password='SECRET-KEYVALUE' options='\(options)'"),
        ]
        let workspace = try SampleVariants.Workspace()
        let store = workspace.url.appendingPathComponent("store").path
        let tokens = workspace.url.appendingPathComponent("tokens").path
        try "t local\n".write(toFile: tokens, atomically: true, encoding: .utf8)
        var ran = 0
        for (index, (secret, catalog)) in catalogs.enumerated() {
            let library = ["--catalog", catalog, "--store", store]
            var runs: [[String]] = [
                ["import", "--owner", "alice", SampleMedia.path("live/train.jpg")] + library,  // before init: an error naming the library
                ["library", "list"] + library,
            ]
            if index == 0 { runs.append(["library", "init"] + library) }
            runs += [
                ["library", "init"] + library,  // again: refused, naming the library
                ["library", "init", "--json"] + library,
                ["import", "--owner", "alice", SampleMedia.path("live/train.jpg")] + library,
                ["import", "--json", SampleMedia.path("live/train.mov")] + library,
                ["library", "pending", "--json"] + library,
                ["library", "sweep"] + library,
                ["library", "migrate", "--from", workspace.url.appendingPathComponent("none").path] + library,
                ["serve", "--tokens", tokens, "--listen", "256.0.0.1:1"] + library,
                ["library", "init", "--catalog", catalog, "--store", "ftp://host/x"],
                ["library", "init", "--catalog", catalog, "--store", "s3://bucket/p/", "--s3-endpoint", "http://key:\(secret)-S3@127.0.0.1:1"],
                ["library", "init", "--catalog", catalog, "--store", "s3://bucket/p/", "--s3-endpoint", "ftp://key:\(secret)-S3@127.0.0.1:1"],
                ["library", "init", "--catalog", "mysql://u:\(secret)@h/db", "--store", store],
            ]
            for arguments in runs {
                let run = try LivePairBinary.run(arguments, environment: ["LIVEPAIR_S3_CONNECT_TIMEOUT": "1"])
                ran += 1
                #expect(!run.output.contains(secret) && !run.error.contains(secret), "\(arguments.prefix(2)): \(run.output) \(run.error)")
            }
            // Through the environment too.
            let listed = try LivePairBinary.run(["library", "init"], environment: ["LIVEPAIR_CATALOG": catalog, "LIVEPAIR_STORE": store])
            #expect(!listed.output.contains(secret) && !listed.error.contains(secret), "\(listed.error)")
        }
        #expect(ran == 3 * 14 + 1)
    }
}

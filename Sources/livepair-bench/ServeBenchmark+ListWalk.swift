import Foundation
import LivePairMedia
import LivePairServer

/// The gallery's listing walked as the page walks it: `GET /v1/assets?limit=60`, then `cursor=`
/// each page's `next` until a page has none, over a library of 2,000 small photos (distinct
/// 64x48 JPEGs, uploaded from 8 loopback clients to a server that makes no derivative). Part of
/// `livepair-bench serve --only gallery`; alone with `--only gallery-list` (`--files N` for
/// another count). Prints each walk's time, and the pages' p50 and p99.
extension ServeBenchmark {
    /// Photos in the walked library.
    static let listAssets = 2000
    /// Assets per page, as the gallery asks for them.
    static let listPageSize = 60
    /// Walks timed (after one walk that warms the catalog's pages).
    static let listWalks = 5

    /// Runs the page walk figures; true when every walk saw every asset once.
    func runListWalk(root: String, assets count: Int) throws -> Bool {
        let folder = root + "/list-uploads"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var files: [String] = []
        for index in 0..<count {
            let pixels = (0..<(64 * 48)).flatMap { pixel -> [UInt8] in
                [UInt8(index & 0xFF), UInt8((index >> 8) & 0xFF), UInt8(pixel & 0xFF), 255]
            }
            let path = folder + "/photo-\(index).jpg"
            try Data(try PixelBuffer(width: 64, height: 48, format: .rgba8, storage: pixels).jpegData(quality: 90))
                .write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        let (_, server) = try Self.benchServer(at: root + "/list-library", backgroundJobs: 0)
        defer { server.stop() }
        let uploads = uploadPairs(files, to: server, prefix: "list")
        print(String(format: "gallery listing: %d photos uploaded in %.1f s (%d failed)", count, uploads.seconds, uploads.failures))
        let client = LoopbackHTTPClient(port: server.port)
        var walks: [Double] = []
        var pages: [Double] = []
        var complete = true
        for walk in 0...Self.listWalks {
            var cursor: String?
            var seen = Set<String>()
            var listed = 0
            var times: [Double] = []
            let start = Date()
            repeat {
                let path = "/v1/assets?limit=\(Self.listPageSize)" + (cursor.map { "&cursor=" + $0 } ?? "")
                let begin = Date()
                let response = try client.send("GET", path, headers: ["Authorization": "Bearer bench-token"])
                times.append(Date().timeIntervalSince(begin))
                guard response.status == 200,
                    let page = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
                    let assets = page["assets"] as? [[String: Any]]
                else { throw BenchmarkOptions.Invalid(description: "GET \(path) answered \(response.status)") }
                listed += assets.count
                seen.formUnion(assets.compactMap { $0["id"] as? String })
                cursor = page["next"] as? String
            } while cursor != nil
            if walk > 0 {
                walks.append(Date().timeIntervalSince(start))
                pages += times
            }
            complete = complete && listed == count && seen.count == count
        }
        let sorted = pages.sorted()
        print(
            String(
                format: "  page walk of %d assets, %d a page (%d pages): median walk %.1f ms; a page p50 %.2f ms, p99 %.2f ms (%d walks)%@",
                count, Self.listPageSize, pages.count / max(1, walks.count), walks.sorted()[walks.count / 2] * 1000,
                Self.percentile(sorted, 0.5) * 1000, Self.percentile(sorted, 0.99) * 1000, walks.count,
                complete ? "" : "; NOT every asset listed once"))
        return complete
    }
}

import Foundation
import LivePairLibrary
import LivePairS3

extension LivePairService {
    /// `GET /` (the web page), `/v1/live-photo.js` (the `<live-photo>` element), `/healthz`, `/readyz`, `/metrics` and `/v1/openapi.json`: no token needed.
    func systemRoutes() -> [Route] {
        [
            Route(method: "GET", pattern: "/", authenticated: false, kind: .quick) { _ throws(HTTPError) in
                HTTPResponse(
                    status: 200,
                    headers: [
                        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-cache"),
                        ("Content-Security-Policy", WebPage.contentSecurityPolicy), ("Referrer-Policy", "no-referrer"),
                    ],
                    body: .bytes(WebPage.bytes))
            },
            Route(method: "GET", pattern: "/app.js", authenticated: false, kind: .quick) { _ throws(HTTPError) in
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache")],
                    body: .bytes(WebScript.bytes))
            },
            Route(method: "GET", pattern: "/app.css", authenticated: false, kind: .quick) { _ throws(HTTPError) in
                HTTPResponse(
                    status: 200, headers: [("Content-Type", "text/css; charset=utf-8"), ("Cache-Control", "no-cache")],
                    body: .bytes(WebStyle.bytes))
            },
            Route(method: "GET", pattern: "/v1/live-photo.js", authenticated: false, kind: .quick) { context throws(HTTPError) in
                Self.livePhotoElementScript(for: context.request)
            },
            Route(method: "GET", pattern: "/healthz", authenticated: false, kind: .quick) { _ throws(HTTPError) in
                .text("{\"status\":\"ok\"}\n", contentType: "application/json")
            },
            Route(method: "GET", pattern: "/readyz", authenticated: false, kind: .blocking) { [self] _ throws(HTTPError) in
                readiness()
            },
            Route(method: "GET", pattern: "/metrics", authenticated: false, kind: .quick) { [self] context throws(HTTPError) in
                if let token = configuration.metricsToken, !MetricsToken.matches(context.request, token: token) { throw .unauthorized }
                return .text(metrics.exposition(mediaPool: mediaPool, jobs: try? library.derivativeJobCounts()), contentType: "text/plain; version=0.0.4; charset=utf-8")
            },
            Route(method: "GET", pattern: "/v1/openapi.json", authenticated: false, kind: .quick) { _ throws(HTTPError) in
                .text(OpenAPIDocument.json, contentType: "application/json")
            },
        ]
    }

    /// `GET /v1/live-photo.js`: the element's script for pages on any origin (`Access-Control-Allow-Origin: *`),
    /// revalidated by its entity tag (304 when `If-None-Match` names it).
    private static func livePhotoElementScript(for request: HTTPRequest) -> HTTPResponse {
        let etag = "\"" + LivePhotoElementScript.entityTag + "\""
        var headers: [(name: String, value: String)] = [
            ("ETag", etag), ("Cache-Control", "no-cache"), ("Access-Control-Allow-Origin", "*"),
        ]
        if let match = request.header("if-none-match"), FileResponder.matches(match, etag) {
            return HTTPResponse(status: 304, headers: headers)
        }
        headers.insert(("Content-Type", "text/javascript; charset=utf-8"), at: 0)
        return HTTPResponse(status: 200, headers: headers, body: .bytes(LivePhotoElementScript.bytes))
    }

    /// `GET /readyz`: 200 when the catalog answers a read and the store a listing (or, a directory
    /// store, is writable), else 503 naming the failing parts; the cause goes to the error log line.
    private func readiness() -> HTTPResponse {
        var failing: [String] = []
        var cause: [String: String] = [:]
        do throws(LibraryError) {
            _ = try library.currentChangeSequence()
        } catch {
            failing.append("catalog")
            cause = HTTPError.cause(of: error)
        }
        if let failure = storeFailure() {
            failing.append("store")
            if cause.isEmpty { cause = failure } else { cause["error"] = (cause["error"] ?? "") + "; " + (failure["error"] ?? "") }
        }
        guard !failing.isEmpty else { return .text("{\"status\":\"ready\"}\n", contentType: "application/json") }
        let list = failing.map { "\"\($0)\"" }.joined(separator: ",")
        var response = HTTPResponse.text(
            "{\"status\":\"unavailable\",\"failing\":[\(list)]}\n", status: 503, contentType: "application/json")
        for (key, value) in cause { response.annotations["cause." + key] = value }
        return response
    }

    /// Why the store cannot be used now (log fields), or nil.
    private func storeFailure() -> [String: String]? {
        if let objects = library.resourceStore as? S3ResourceStore {
            do throws(S3Error) {
                _ = try objects.client.listPage(bucket: objects.bucket, prefix: objects.prefix, maximumKeys: 1)
                return nil
            } catch {
                return HTTPError.cause(of: error)
            }
        }
        guard access(library.directory, W_OK | X_OK) == 0 else {
            return ["error": "the store \(library.directory) is not writable: " + String(cString: strerror(errno))]
        }
        return nil
    }
}

import LivePairLibrary

extension LivePairService {
    /// `GET /` (the web page), `/healthz`, `/metrics` and `/v1/openapi.json`: no token needed.
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
            Route(method: "GET", pattern: "/healthz", authenticated: false, kind: .quick) { [self] _ throws(HTTPError) in
                do throws(LibraryErrorBox) {
                    _ = try catalogSequence()
                } catch {
                    return .text("{\"status\":\"unavailable\"}\n", status: 503, contentType: "application/json")
                }
                return .text("{\"status\":\"ok\"}\n", contentType: "application/json")
            },
            Route(method: "GET", pattern: "/metrics", authenticated: false, kind: .quick) { [self] _ throws(HTTPError) in
                .text(metrics.exposition(mediaPool: mediaPool), contentType: "text/plain; version=0.0.4; charset=utf-8")
            },
            Route(method: "GET", pattern: "/v1/openapi.json", authenticated: false, kind: .quick) { _ throws(HTTPError) in
                .text(OpenAPIDocument.json, contentType: "application/json")
            },
        ]
    }

    /// The catalog's latest change sequence (proves the catalog answers).
    private func catalogSequence() throws(LibraryErrorBox) -> Int64 {
        do {
            return try library.currentChangeSequence()
        } catch {
            throw LibraryErrorBox()
        }
    }
}

/// A library failure the health check only needs to know happened.
struct LibraryErrorBox: Error {}

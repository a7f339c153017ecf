import Foundation
import Testing

@testable import LivePairServer

/// The OpenAPI document built from shared pieces: valid JSON, every reference resolves, every
/// route of the server is described, and the shared answers are where they belong.
struct OpenAPIDocumentTests {
    private func document() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    }

    @Test func everyReferenceResolvesAndEveryRouteIsDescribed() throws {
        let document = try document()
        #expect(document["openapi"] as? String == "3.1.0")
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let references = OpenAPIDocument.json.components(separatedBy: "\"$ref\": \"#/components/schemas/").dropFirst()
            .map { String($0.prefix { $0 != "\"" }) }
        #expect(references.count > 20)
        for name in Set(references) { #expect(schemas[name] != nil, "unresolved reference \(name)") }

        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let routes = [
            ("PUT", "/v1/uploads/{uploadID}"), ("GET", "/v1/assets"), ("GET", "/v1/assets/{id}"), ("DELETE", "/v1/assets/{id}"),
            ("GET", "/v1/assets/{id}/resources/{type}"), ("GET", "/v1/assets/{id}/placeholder.jpg"),
            ("GET", "/v1/assets/{id}/still.jpg"), ("GET", "/v1/assets/{id}/motion.mp4"), ("GET", "/v1/assets/{id}/playback.mp4"),
            ("GET", "/v1/pending"),
            ("GET", "/v1/changes"), ("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics"), ("GET", "/v1/openapi.json"), ("GET", "/v1/live-photo.js"), ("GET", "/"),
        ]
        #expect(paths.count == Set(routes.map(\.1)).count)
        for (method, path) in routes {
            let operation = try #require(paths[path]?[method.lowercased()] as? [String: Any], "\(method) \(path) is not described")
            let responses = try #require(operation["responses"] as? [String: Any])
            let isPublic = (operation["security"] as? [Any])?.isEmpty == true
            #expect(isPublic == ["/healthz", "/readyz", "/metrics", "/v1/openapi.json", "/v1/live-photo.js", "/"].contains(path), "\(path)")
            if !isPublic { #expect(responses["401"] != nil, "\(method) \(path) has no 401") }
            if path.contains("{id}") { #expect(responses["404"] != nil, "\(method) \(path) has no 404") }
        }
        let still = try #require(paths["/v1/assets/{id}/still.jpg"]?["get"] as? [String: Any])
        let stillResponses = try #require(still["responses"] as? [String: Any])
        #expect(Set(stillResponses.keys) == ["200", "206", "304", "401", "404", "416"])
        let changes = try #require(paths["/v1/changes"]?["get"] as? [String: Any])
        let content = try #require(((changes["responses"] as? [String: Any])?["200"] as? [String: Any])?["content"] as? [String: Any])
        #expect(Set(content.keys) == ["application/json", "text/event-stream"])
        let headers = try #require((document["components"] as? [String: Any])?["headers"] as? [String: Any])
        #expect(headers["X-Request-Id"] != nil)
    }
}

/// The OpenAPI 3.1 description of the HTTP API, served at `GET /v1/openapi.json` (docs/http.md says
/// the same in prose), assembled from `OpenAPISchemas` and `OpenAPIPaths`.
enum OpenAPIDocument {
    /// The document.
    static let json: String = document.text()

    static let document: OpenAPIValue = [
        "openapi": "3.1.0",
        "info": [
            "title": "LivePair",
            "version": "1",
            "description":
                "Uploads, assets, originals, web derivatives and changes of one LivePair library; every /v1 endpoint but openapi.json needs `Authorization: Bearer TOKEN` and sees only the token's owner's assets (another owner's asset answers 404). Any request is answered 400 for a NUL or other control character in its request line or headers (raw or percent-encoded in the target), more than 64 query parameters, two different Content-Length headers or a body on GET, HEAD or DELETE, and 501 for a Transfer-Encoding other than chunked. Every response carries the X-Request-Id header (the one a proxy sent, when it is 1 to 64 of A-Z a-z 0-9 - _ . :, else 32 hexadecimal digits), also written in the server's log line of the request. See docs/http.md.",
        ],
        "components": [
            "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]],
            "schemas": OpenAPISchemas.all,
            "headers": [
                "X-Request-Id": [
                    "description": "The request's ID, on every response and in the server's log line.",
                    "schema": ["type": "string", "pattern": "^[A-Za-z0-9._:-]{1,64}$"],
                ]
            ],
        ],
        "security": [["bearer": []]],
        "paths": OpenAPIPaths.all,
    ]
}

/// The OpenAPI document's paths, built from the pieces they share (parameters, error answers,
/// file answers).
enum OpenAPIPaths {
    private typealias Schemas = OpenAPISchemas

    // MARK: - Shared pieces

    /// A JSON answer with the schema `schema`.
    static func json(_ description: String, _ schema: OpenAPIValue) -> OpenAPIValue {
        ["description": .string(description), "content": ["application/json": ["schema": schema]]]
    }

    /// An error answer (the `Error` schema).
    static func error(_ description: String) -> OpenAPIValue { json(description, Schemas.ref("Error")) }

    static let unauthorized = error("No or wrong token.")
    static let notFound = error("No such asset for this owner.")

    /// A parameter `name` in `place` (`path`, `query`, `header`).
    static func parameter(_ name: String, in place: String, _ schema: OpenAPIValue = Schemas.string, _ description: String? = nil)
        -> OpenAPIValue
    {
        let base: OpenAPIValue = ["name": .string(name), "in": .string(place)]
        return base.adding([
            ("required", place == "path" ? .boolean(true) : nil), ("schema", schema), ("description", description.map(OpenAPIValue.string)),
        ])
    }

    static let assetID = parameter("id", in: "path")

    /// An operation: `summary`, `parameters` (left out when empty), `responses` (in order).
    static func operation(
        _ summary: String, parameters: [OpenAPIValue] = [], public isPublic: Bool = false,
        responses: KeyValuePairs<String, OpenAPIValue>, extra: [(String, OpenAPIValue?)] = []
    ) -> OpenAPIValue {
        let base: OpenAPIValue = ["summary": .string(summary)]
        return base.adding(
            [
                ("security", isPublic ? .array([]) : nil), ("parameters", parameters.isEmpty ? nil : .array(parameters)),
            ] + extra + [("responses", .object(responses.map { (key: $0.key, value: $0.value) }))])
    }

    /// A GET of an immutable file (an original or a derivative) of `mediaType`: ETag and
    /// If-None-Match, one Range, Cache-Control.
    static func fileGet(_ summary: String, mediaType: String, described: String, parameters: [OpenAPIValue]) -> OpenAPIValue {
        operation(
            summary,
            parameters: [assetID] + parameters + [
                parameter("Range", in: "header", Schemas.string, "One byte range (bytes=a-b, bytes=a-, bytes=-n)."),
                parameter("If-None-Match", in: "header", Schemas.string, "Entity tags, compared weakly (W/\"tag\" matches)."),
            ],
            responses: [
                "200": [
                    "description": .string(described), "content": .object([(key: mediaType, value: OpenAPIValue.object([(key: "schema", value: Schemas.binary)]))]),
                    "headers": ["ETag": ["schema": Schemas.string], "Cache-Control": ["schema": Schemas.string]],
                ],
                "206": ["description": "The requested range (Content-Range)."],
                "304": ["description": "Not modified (If-None-Match matched the ETag)."],
                "401": unauthorized, "404": notFound, "416": error("The range lies outside the file, or a number of it does not fit in 64 bits."),
            ])
    }

    /// The `size` query parameter of a derivative (snapped up to 256, 512, 1024, 2048 or the source's size).
    /// The `version` query parameter of an edited asset's files.
    static func version(default value: String) -> OpenAPIValue {
        parameter(
            "version", in: "query", ["type": "string", "enum": ["current", "unadjusted", "original"], "default": .string(value)],
            "current: the edit's render when the asset is edited; unadjusted, original: the original")
    }

    static func size(default value: Int) -> OpenAPIValue {
        parameter("size", in: "query", ["type": "integer", "minimum": 16, "maximum": 4096, "default": .integer(value)])
    }

    // MARK: - The paths

    static let all: OpenAPIValue = [
        "/v1/uploads/{uploadID}": ["put": upload],
        "/v1/assets": ["get": assets],
        "/v1/assets/{id}": [
            "get": operation("One asset.", parameters: [assetID], responses: ["200": json("The asset.", Schemas.ref("Asset")), "401": unauthorized, "404": notFound]),
            "delete": operation("Delete an asset.", parameters: [assetID], responses: ["204": ["description": "Deleted."], "401": unauthorized, "404": notFound]),
        ],
        "/v1/assets/{id}/resources/{type}": [
            "get": fileGet(
                "An original file.", mediaType: "application/octet-stream", described: "The original's bytes.",
                parameters: [
                    parameter(
                        "type", in: "path",
                        Schemas.oneOf([
                            "photo", "pairedVideo", "video", "fullSizePhoto", "fullSizePairedVideo", "fullSizeVideo", "adjustmentData",
                            "originalAdjustmentData",
                        ])),
                    parameter(
                        "version", in: "query", ["type": "string", "enum": ["current", "unadjusted", "original"]],
                        "with it, the type names the resource as that version shows it (photo?version=current: an edit's render)"),
                ])
        ],
        "/v1/assets/{id}/placeholder.jpg": [
            "get": fileGet("A quick degraded image (at most 320 px).", mediaType: "image/jpeg", described: "JPEG.", parameters: [version(default: "current")])
        ],
        "/v1/assets/{id}/still.jpg": [
            "get": fileGet("The upright still as JPEG, size snapped up to 256, 512, 1024, 2048 px or the source's size.", mediaType: "image/jpeg", described: "JPEG.", parameters: [size(default: 1024), version(default: "current")])
        ],
        "/v1/assets/{id}/motion.mp4": [
            "get": fileGet(
                "The Live Photo's motion as H.264/AAC MP4, sized as the still.", mediaType: "video/mp4", described: "MP4.",
                parameters: [size(default: 720), version(default: "current")])
        ],
        "/v1/assets/{id}/playback.mp4": [
            "get": fileGet(
                "A plain video as H.264/AAC MP4 (browsers play it whatever the original's codec), sized as the motion.",
                mediaType: "video/mp4", described: "MP4.", parameters: [size(default: 720), version(default: "current")])
        ],
        "/v1/pending": [
            "get": operation(
                "The owner's Live Photo halves waiting for their partner.",
                responses: ["200": json("Pending halves.", Schemas.ref("Pending")), "401": unauthorized])
        ],
        "/v1/changes": ["get": changes],
        "/healthz": [
            "get": operation("Liveness: the process answers (it checks nothing else).", public: true, responses: ["200": ["description": "{\"status\":\"ok\"}"]])
        ],
        "/readyz": [
            "get": operation(
                "Readiness: the catalog answers a read and the store a listing (a directory store: is writable).", public: true,
                responses: [
                    "200": ["description": "{\"status\":\"ready\"}"],
                    "503": ["description": "{\"status\":\"unavailable\",\"failing\":[\"catalog\"|\"store\", ...]}; the cause is in the server's error log line."],
                ])
        ],
        "/metrics": [
            "get": operation(
                "Prometheus text metrics: service-wide counts, no owner, asset or path. With --metrics-token, that bearer token is required.",
                public: true, responses: ["200": ["description": "text/plain; version=0.0.4"], "401": error("--metrics-token is set and the request does not carry it.")])
        ],
        "/v1/live-photo.js": [
            "get": operation(
                "The <live-photo> custom element, for pages on any origin (Access-Control-Allow-Origin: *; ETag, revalidated: 304 for If-None-Match). See docs/web.md.",
                public: true,
                responses: [
                    "200": ["description": "text/javascript; charset=utf-8"],
                    "304": ["description": "Not modified (If-None-Match matched the ETag)."],
                ])
        ],
        "/v1/openapi.json": ["get": operation("This document.", public: true, responses: ["200": ["description": "OpenAPI 3.1"]])],
        "/": [
            "get": operation(
                "The web page (token in the URL fragment: /#token=...).", public: true, responses: ["200": ["description": "text/html"]])
        ],
    ]

    static let upload = operation(
        "Upload one file (a still, a movie or a motion photo).",
        parameters: [
            parameter(
                "uploadID", in: "path", ["type": "string", "pattern": "^[A-Za-z0-9._~-]{1,200}$"],
                "The client's ID: a retry with the same ID and bytes gets the same answer."),
            parameter("X-Original-Filename", in: "header", Schemas.string, "Percent-encoded; kept as data, never a path."),
            parameter("Content-Digest", in: "header", Schemas.string, "sha-256=:BASE64:, verified (400 on mismatch, nothing stored)."),
        ],
        responses: [
            "201": json("Accepted: a new asset.", Schemas.ref("AssetOutcome")),
            "200": json("Duplicate: these bytes are already in this asset.", Schemas.ref("AssetOutcome")),
            "202": json("Pending: half of a Live Photo, waiting for the other half.", Schemas.ref("PendingOutcome")),
            "422": json("Rejected, with the findings.", Schemas.ref("RejectedOutcome")),
            "400": error("Bad upload ID, Content-Digest mismatch or malformed header."), "401": unauthorized,
            "409": json(
                "The upload ID already named other bytes: nothing stored; `first` is the answer its first upload got.",
                ["type": "object", "properties": ["outcome": ["const": "conflict"], "uploadID": Schemas.string, "first": ["type": "object"]]]),
            "413": error("Larger than the server's upload limit."),
            "501": error("A Transfer-Encoding other than chunked."),
            "415": error("A multipart body: send the file itself as the body."),
        ],
        extra: [("requestBody", ["required": true, "content": ["application/octet-stream": ["schema": Schemas.binary]]])])

    static let assets = operation(
        "The owner's assets, a page at a time.",
        parameters: [
            parameter("limit", in: "query", ["type": "integer", "minimum": 1, "maximum": 1000, "default": 100]),
            parameter("offset", in: "query", ["type": "integer", "minimum": 0, "default": 0]),
            parameter(
                "cursor", in: "query", Schemas.string,
                "The next of the previous page (sort=-dateTaken or dateTaken): the assets after its last one; not with offset."),
            parameter("mediaType", in: "query", Schemas.oneOf(["image", "video"])),
            parameter("livePhotos", in: "query", Schemas.boolean), parameter("favorite", in: "query", Schemas.boolean),
            parameter("includeHidden", in: "query", Schemas.boolean),
            parameter(
                "sort", in: "query", ["type": "string", "default": "-dateTaken"],
                "dateTaken, creationDate, addedDate, pixelWidth, pixelHeight, duration, isFavorite or localIdentifier; '-' for descending."),
        ],
        responses: ["200": json("A page.", Schemas.ref("AssetPage")), "400": error("A bad parameter."), "401": unauthorized])

    static let changes = operation(
        "The owner's assets changed after a position in the owner's own changes (a count of the owner's committed batches; other owners' commits never move it): a long poll, or Server-Sent Events with Accept: text/event-stream.",
        parameters: [
            parameter("since", in: "query", ["type": "integer", "minimum": 0], "Without it: the owner's current position (at once, or the stream starts there)."),
            parameter("timeout", in: "query", ["type": "integer", "minimum": 0, "default": 25], "Long poll: seconds to wait for a change (at most the server's limit)."),
            parameter("Accept", in: "header", Schemas.string, "text/event-stream for Server-Sent Events."),
            parameter("Last-Event-ID", in: "header", ["type": "integer", "minimum": 0], "Event stream: resume after this position (when since is absent)."),
        ],
        responses: [
            "200": [
                "description":
                    "Long poll: the changes (possibly none when the wait ended). Event stream: an event 'ready' (data {\"next\": N}), then an event 'change' (id: the position to resume from; data: the Changes object) each time the owner's assets change, and a comment line every 15 quiet seconds.",
                "content": [
                    "application/json": ["schema": Schemas.ref("Changes")],
                    "text/event-stream": ["schema": Schemas.string],
                ],
            ],
            "400": error("since or Last-Event-ID is not a position (0 or more)."), "401": unauthorized,
        ])
}

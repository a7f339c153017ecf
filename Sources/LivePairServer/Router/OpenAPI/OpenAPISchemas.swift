/// The OpenAPI document's schemas (`components.schemas`) and the small schema pieces they share.
enum OpenAPISchemas {
    static let string: OpenAPIValue = ["type": "string"]
    static let integer: OpenAPIValue = ["type": "integer"]
    static let boolean: OpenAPIValue = ["type": "boolean"]
    static let dateTime: OpenAPIValue = ["type": "string", "format": "date-time"]
    static let binary: OpenAPIValue = ["type": "string", "format": "binary"]

    /// `{"$ref": "#/components/schemas/NAME"}`.
    static func ref(_ name: String) -> OpenAPIValue { ["$ref": .string("#/components/schemas/" + name)] }

    /// An array of `items`.
    static func array(_ items: OpenAPIValue) -> OpenAPIValue { ["type": "array", "items": items] }

    /// A string with one of `values`.
    static func oneOf(_ values: [String]) -> OpenAPIValue { ["type": "string", "enum": .array(values.map(OpenAPIValue.string))] }

    /// An object with `properties` (in order), of which `required` must be there.
    static func object(required: [String], _ properties: KeyValuePairs<String, OpenAPIValue>) -> OpenAPIValue {
        [
            "type": "object", "required": .array(required.map(OpenAPIValue.string)),
            "properties": .object(properties.map { (key: $0.key, value: $0.value) }),
        ]
    }

    /// Every named schema.
    static let all: OpenAPIValue = [
        "Error": object(required: ["error"], ["error": object(required: ["status", "message"], ["status": integer, "message": string])]),
        "Resource": object(
            required: ["type", "size", "digest"],
            [
                "type": oneOf([
                    "photo", "pairedVideo", "video", "audio", "alternatePhoto", "fullSizePhoto", "fullSizeVideo", "adjustmentData",
                    "fullSizePairedVideo", "adjustmentBasePhoto", "originalAdjustmentData",
                ]),
                "size": integer, "digest": ["type": "string", "description": "SHA-256, hex"], "originalFilename": string,
                "uniformTypeIdentifier": string,
            ]),
        "Asset": object(
            required: [
                "id", "mediaType", "mediaSubtypes", "isLivePhoto", "isMotionPhoto", "pixelWidth", "pixelHeight", "duration",
                "addedDate", "dateTaken", "isFavorite", "isHidden", "hasAdjustments", "resources", "links", "derivativeFailures",
            ],
            [
                "id": string, "mediaType": oneOf(["image", "video", "unknown"]),
                "mediaSubtypes": array(
                    oneOf(["photoPanorama", "photoHDR", "photoScreenshot", "photoLive", "photoDepthEffect", "videoHighFrameRate", "videoTimelapse"])),
                "isLivePhoto": boolean, "isMotionPhoto": ["type": "boolean", "description": "A Live Photo whose movie is inside the still."],
                "pixelWidth": integer, "pixelHeight": integer, "duration": ["type": "number"],
                "creationDate": dateTime, "addedDate": dateTime,
                "dateTaken": ["type": "string", "format": "date-time", "description": "creationDate, else addedDate: the list's order."],
                "location": object(required: ["latitude", "longitude"], ["latitude": ["type": "number"], "longitude": ["type": "number"]]),
                "isFavorite": boolean, "isHidden": boolean, "contentIdentifier": string, "caption": string, "hasAdjustments": boolean,
                "stillImageTime": ["type": "number", "description": "A Live Photo's key photo on its movie's timeline, seconds: the current version's (an edited Live Photo's rendered movie)."],
                "originalStillImageTime": ["type": "number", "description": "The original movie's key photo time, seconds, when an edit rendered the movie."],
                "edit": ref("Edit"), "resources": array(ref("Resource")),
                "links": object(
                    required: ["placeholder", "still"],
                    [
                        "placeholder": string, "still": string, "motion": string, "playback": string, "photo": string,
                        "pairedVideo": string, "video": string,
                    ]),
                "derivativeFailures": array(
                    object(required: ["derivative", "message"], ["derivative": oneOf(["placeholder", "still", "motion", "playback"]), "message": string])),
                "metadata": [
                    "description": "Read from the original's headers; GET /v1/assets/{id} only.",
                    "type": "object", "required": ["uprightWidth", "uprightHeight", "orientation"],
                    "properties": [
                        "uprightWidth": integer, "uprightHeight": integer, "orientation": ["type": "integer", "minimum": 1, "maximum": 8],
                        "make": string, "model": string,
                    ],
                ],
            ]),
        "Edit": object(
            required: ["readable"],
            [
                "readable": boolean, "formatIdentifier": string, "formatVersion": string, "editor": string,
                "operations": array(object(required: ["identifier", "enabled"], ["identifier": string, "enabled": boolean])),
                "keyPhotoTime": ["type": "number"],
                "trim": object(required: ["start", "end"], ["start": ["type": "number"], "end": ["type": "number"]]),
                "muted": boolean, "playbackVariation": oneOf(["loop", "bounce", "longExposure"]),
            ]),
        "Finding": object(
            required: ["code", "severity", "message", "hint"],
            ["code": string, "severity": oneOf(["info", "warning", "error"]), "message": string, "hint": string]),
        "AssetOutcome": object(required: ["outcome", "asset"], ["outcome": oneOf(["accepted", "duplicate"]), "asset": ref("Asset")]),
        "PendingOutcome": object(
            required: ["outcome", "uploadID", "contentIdentifier"],
            ["outcome": ["const": "pending"], "uploadID": string, "contentIdentifier": string]),
        "RejectedOutcome": object(
            required: ["outcome", "uploadID", "findings"],
            ["outcome": ["const": "rejected"], "uploadID": string, "findings": array(ref("Finding"))]),
        "AssetPage": object(
            required: ["assets", "total", "limit"],
            [
                "assets": array(ref("Asset")), "total": integer, "offset": ["type": "integer", "description": "Absent on a cursor's page."],
                "limit": integer, "nextOffset": integer,
                "next": ["type": "string", "description": "Date-taken order: the cursor of the next page, absent on the last."],
            ]),
        "Pending": object(
            required: ["pending"],
            [
                "pending": array(
                    object(
                        required: ["contentIdentifier", "type", "size", "digest", "receivedAt"],
                        [
                            "contentIdentifier": string, "type": oneOf(["photo", "pairedVideo"]), "size": integer, "digest": string,
                            "originalFilename": string, "uploadID": string, "receivedAt": dateTime,
                        ]))
            ]),
        "Changes": object(
            required: ["next", "inserted", "updated", "deleted"],
            [
                "since": integer, "next": ["type": "integer", "description": "Pass as since next time."],
                "inserted": array(string), "updated": array(string), "deleted": array(string),
            ]),
    ]
}

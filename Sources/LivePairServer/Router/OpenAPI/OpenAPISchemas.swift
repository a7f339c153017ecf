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
                "id", "mediaType", "isLivePhoto", "pixelWidth", "pixelHeight", "duration", "addedDate", "isFavorite", "isHidden",
                "hasAdjustments", "resources", "links",
            ],
            [
                "id": string, "mediaType": oneOf(["image", "video", "unknown"]), "isLivePhoto": boolean, "pixelWidth": integer,
                "pixelHeight": integer, "duration": ["type": "number"], "creationDate": dateTime, "addedDate": dateTime,
                "isFavorite": boolean, "isHidden": boolean, "contentIdentifier": string, "caption": string, "hasAdjustments": boolean,
                "resources": array(ref("Resource")),
                "links": object(
                    required: ["placeholder", "still"],
                    [
                        "placeholder": string, "still": string, "motion": string, "photo": string, "pairedVideo": string,
                        "video": string,
                    ]),
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
            required: ["assets", "total", "offset", "limit"],
            ["assets": array(ref("Asset")), "total": integer, "offset": integer, "limit": integer, "nextOffset": integer]),
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

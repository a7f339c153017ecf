/// The OpenAPI 3.1 description of the HTTP API, served at `GET /v1/openapi.json` (docs/http.md says
/// the same in prose).
enum OpenAPIDocument {
    /// The document.
    static let json = #"""
        {
          "openapi": "3.1.0",
          "info": {
            "title": "LivePair",
            "version": "1",
            "description": "Uploads, assets, originals, web derivatives and changes of one LivePair library; every /v1 endpoint but openapi.json needs `Authorization: Bearer TOKEN` and sees only the token's owner's assets (another owner's asset answers 404). See docs/http.md."
          },
          "components": {
            "securitySchemes": {
              "bearer": {
                "type": "http",
                "scheme": "bearer"
              }
            },
            "schemas": {
              "Error": {
                "type": "object",
                "required": [
                  "error"
                ],
                "properties": {
                  "error": {
                    "type": "object",
                    "required": [
                      "status",
                      "message"
                    ],
                    "properties": {
                      "status": {
                        "type": "integer"
                      },
                      "message": {
                        "type": "string"
                      }
                    }
                  }
                }
              },
              "Resource": {
                "type": "object",
                "required": [
                  "type",
                  "size",
                  "digest"
                ],
                "properties": {
                  "type": {
                    "type": "string",
                    "enum": [
                      "photo",
                      "pairedVideo",
                      "video",
                      "audio",
                      "alternatePhoto",
                      "fullSizePhoto",
                      "fullSizeVideo",
                      "adjustmentData",
                      "fullSizePairedVideo",
                      "adjustmentBasePhoto"
                    ]
                  },
                  "size": {
                    "type": "integer"
                  },
                  "digest": {
                    "type": "string",
                    "description": "SHA-256, hex"
                  },
                  "originalFilename": {
                    "type": "string"
                  },
                  "uniformTypeIdentifier": {
                    "type": "string"
                  }
                }
              },
              "Asset": {
                "type": "object",
                "required": [
                  "id",
                  "mediaType",
                  "isLivePhoto",
                  "pixelWidth",
                  "pixelHeight",
                  "duration",
                  "addedDate",
                  "isFavorite",
                  "isHidden",
                  "resources",
                  "links"
                ],
                "properties": {
                  "id": {
                    "type": "string"
                  },
                  "mediaType": {
                    "type": "string",
                    "enum": [
                      "image",
                      "video",
                      "unknown"
                    ]
                  },
                  "isLivePhoto": {
                    "type": "boolean"
                  },
                  "pixelWidth": {
                    "type": "integer"
                  },
                  "pixelHeight": {
                    "type": "integer"
                  },
                  "duration": {
                    "type": "number"
                  },
                  "creationDate": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "addedDate": {
                    "type": "string",
                    "format": "date-time"
                  },
                  "isFavorite": {
                    "type": "boolean"
                  },
                  "isHidden": {
                    "type": "boolean"
                  },
                  "contentIdentifier": {
                    "type": "string"
                  },
                  "resources": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Resource"
                    }
                  },
                  "links": {
                    "type": "object",
                    "required": [
                      "placeholder",
                      "still"
                    ],
                    "properties": {
                      "placeholder": {
                        "type": "string"
                      },
                      "still": {
                        "type": "string"
                      },
                      "motion": {
                        "type": "string"
                      },
                      "photo": {
                        "type": "string"
                      },
                      "pairedVideo": {
                        "type": "string"
                      },
                      "video": {
                        "type": "string"
                      }
                    }
                  }
                }
              },
              "Finding": {
                "type": "object",
                "required": [
                  "code",
                  "severity",
                  "message",
                  "hint"
                ],
                "properties": {
                  "code": {
                    "type": "string"
                  },
                  "severity": {
                    "type": "string",
                    "enum": [
                      "info",
                      "warning",
                      "error"
                    ]
                  },
                  "message": {
                    "type": "string"
                  },
                  "hint": {
                    "type": "string"
                  }
                }
              },
              "AssetOutcome": {
                "type": "object",
                "required": [
                  "outcome",
                  "asset"
                ],
                "properties": {
                  "outcome": {
                    "type": "string",
                    "enum": [
                      "accepted",
                      "duplicate"
                    ]
                  },
                  "asset": {
                    "$ref": "#/components/schemas/Asset"
                  }
                }
              },
              "PendingOutcome": {
                "type": "object",
                "required": [
                  "outcome",
                  "uploadID",
                  "contentIdentifier"
                ],
                "properties": {
                  "outcome": {
                    "const": "pending"
                  },
                  "uploadID": {
                    "type": "string"
                  },
                  "contentIdentifier": {
                    "type": "string"
                  }
                }
              },
              "RejectedOutcome": {
                "type": "object",
                "required": [
                  "outcome",
                  "uploadID",
                  "findings"
                ],
                "properties": {
                  "outcome": {
                    "const": "rejected"
                  },
                  "uploadID": {
                    "type": "string"
                  },
                  "findings": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Finding"
                    }
                  }
                }
              },
              "AssetPage": {
                "type": "object",
                "required": [
                  "assets",
                  "total",
                  "offset",
                  "limit"
                ],
                "properties": {
                  "assets": {
                    "type": "array",
                    "items": {
                      "$ref": "#/components/schemas/Asset"
                    }
                  },
                  "total": {
                    "type": "integer"
                  },
                  "offset": {
                    "type": "integer"
                  },
                  "limit": {
                    "type": "integer"
                  },
                  "nextOffset": {
                    "type": "integer"
                  }
                }
              },
              "Pending": {
                "type": "object",
                "required": [
                  "pending"
                ],
                "properties": {
                  "pending": {
                    "type": "array",
                    "items": {
                      "type": "object",
                      "required": [
                        "contentIdentifier",
                        "type",
                        "size",
                        "digest",
                        "receivedAt"
                      ],
                      "properties": {
                        "contentIdentifier": {
                          "type": "string"
                        },
                        "type": {
                          "type": "string",
                          "enum": [
                            "photo",
                            "pairedVideo"
                          ]
                        },
                        "size": {
                          "type": "integer"
                        },
                        "digest": {
                          "type": "string"
                        },
                        "originalFilename": {
                          "type": "string"
                        },
                        "uploadID": {
                          "type": "string"
                        },
                        "receivedAt": {
                          "type": "string",
                          "format": "date-time"
                        }
                      }
                    }
                  }
                }
              },
              "Changes": {
                "type": "object",
                "required": [
                  "next",
                  "inserted",
                  "updated",
                  "deleted"
                ],
                "properties": {
                  "since": {
                    "type": "integer"
                  },
                  "next": {
                    "type": "integer",
                    "description": "Pass as since next time."
                  },
                  "inserted": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "updated": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  },
                  "deleted": {
                    "type": "array",
                    "items": {
                      "type": "string"
                    }
                  }
                }
              }
            }
          },
          "security": [
            {
              "bearer": []
            }
          ],
          "paths": {
            "/v1/uploads/{uploadID}": {
              "put": {
                "summary": "Upload one file (a still, a movie or a motion photo).",
                "parameters": [
                  {
                    "name": "uploadID",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "pattern": "^[A-Za-z0-9._~-]{1,200}$"
                    },
                    "description": "The client's ID: a retry with the same ID and bytes gets the same answer."
                  },
                  {
                    "name": "X-Original-Filename",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    },
                    "description": "Percent-encoded; kept as data, never a path."
                  },
                  {
                    "name": "Content-Digest",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    },
                    "description": "sha-256=:BASE64:, verified (400 on mismatch, nothing stored)."
                  }
                ],
                "requestBody": {
                  "required": true,
                  "content": {
                    "application/octet-stream": {
                      "schema": {
                        "type": "string",
                        "format": "binary"
                      }
                    }
                  }
                },
                "responses": {
                  "201": {
                    "description": "Accepted: a new asset.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AssetOutcome"
                        }
                      }
                    }
                  },
                  "200": {
                    "description": "Duplicate: these bytes are already in this asset.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AssetOutcome"
                        }
                      }
                    }
                  },
                  "202": {
                    "description": "Pending: half of a Live Photo, waiting for the other half.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/PendingOutcome"
                        }
                      }
                    }
                  },
                  "422": {
                    "description": "Rejected, with the findings.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/RejectedOutcome"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "Bad upload ID, Content-Digest mismatch or malformed header.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "413": {
                    "description": "Larger than the server's upload limit.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/assets": {
              "get": {
                "summary": "The owner's assets, a page at a time.",
                "parameters": [
                  {
                    "name": "limit",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 1,
                      "maximum": 1000,
                      "default": 100
                    }
                  },
                  {
                    "name": "offset",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "default": 0
                    }
                  },
                  {
                    "name": "mediaType",
                    "in": "query",
                    "schema": {
                      "type": "string",
                      "enum": [
                        "image",
                        "video"
                      ]
                    }
                  },
                  {
                    "name": "livePhotos",
                    "in": "query",
                    "schema": {
                      "type": "boolean"
                    }
                  },
                  {
                    "name": "favorite",
                    "in": "query",
                    "schema": {
                      "type": "boolean"
                    }
                  },
                  {
                    "name": "includeHidden",
                    "in": "query",
                    "schema": {
                      "type": "boolean"
                    }
                  },
                  {
                    "name": "sort",
                    "in": "query",
                    "schema": {
                      "type": "string",
                      "default": "-addedDate"
                    },
                    "description": "creationDate, addedDate, pixelWidth, pixelHeight, duration, isFavorite or localIdentifier; '-' for descending."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "A page.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/AssetPage"
                        }
                      }
                    }
                  },
                  "400": {
                    "description": "A bad parameter.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/assets/{id}": {
              "get": {
                "summary": "One asset.",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The asset.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Asset"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such asset for this owner.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              },
              "delete": {
                "summary": "Delete an asset.",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "204": {
                    "description": "Deleted."
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such asset for this owner.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/assets/{id}/resources/{type}": {
              "get": {
                "summary": "An original file.",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "type",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string",
                      "enum": [
                        "photo",
                        "pairedVideo",
                        "video"
                      ]
                    }
                  },
                  {
                    "name": "Range",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    },
                    "description": "One byte range (bytes=a-b, bytes=a-, bytes=-n)."
                  },
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The original's bytes.",
                    "content": {
                      "application/octet-stream": {
                        "schema": {
                          "type": "string",
                          "format": "binary"
                        }
                      }
                    },
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      },
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "206": {
                    "description": "The requested range (Content-Range)."
                  },
                  "304": {
                    "description": "Not modified (If-None-Match matched the ETag)."
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such asset for this owner.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "416": {
                    "description": "The range lies outside the file.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/assets/{id}/placeholder.jpg": {
              "get": {
                "summary": "A quick degraded image (at most 320 px).",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "Range",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    },
                    "description": "One byte range (bytes=a-b, bytes=a-, bytes=-n)."
                  },
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "JPEG.",
                    "content": {
                      "image/jpeg": {
                        "schema": {
                          "type": "string",
                          "format": "binary"
                        }
                      }
                    },
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      },
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "206": {
                    "description": "The requested range (Content-Range)."
                  },
                  "304": {
                    "description": "Not modified (If-None-Match matched the ETag)."
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such asset for this owner.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "416": {
                    "description": "The range lies outside the file.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/assets/{id}/still.jpg": {
              "get": {
                "summary": "The upright still as JPEG, at most size px.",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "size",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 16,
                      "maximum": 4096,
                      "default": 1024
                    }
                  },
                  {
                    "name": "Range",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    },
                    "description": "One byte range (bytes=a-b, bytes=a-, bytes=-n)."
                  },
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "JPEG.",
                    "content": {
                      "image/jpeg": {
                        "schema": {
                          "type": "string",
                          "format": "binary"
                        }
                      }
                    },
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      },
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "206": {
                    "description": "The requested range (Content-Range)."
                  },
                  "304": {
                    "description": "Not modified (If-None-Match matched the ETag)."
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such asset for this owner.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "416": {
                    "description": "The range lies outside the file.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/assets/{id}/motion.mp4": {
              "get": {
                "summary": "The Live Photo's motion as H.264/AAC MP4, at most size px.",
                "parameters": [
                  {
                    "name": "id",
                    "in": "path",
                    "required": true,
                    "schema": {
                      "type": "string"
                    }
                  },
                  {
                    "name": "size",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 16,
                      "maximum": 4096,
                      "default": 720
                    }
                  },
                  {
                    "name": "Range",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    },
                    "description": "One byte range (bytes=a-b, bytes=a-, bytes=-n)."
                  },
                  {
                    "name": "If-None-Match",
                    "in": "header",
                    "schema": {
                      "type": "string"
                    }
                  }
                ],
                "responses": {
                  "200": {
                    "description": "MP4.",
                    "content": {
                      "video/mp4": {
                        "schema": {
                          "type": "string",
                          "format": "binary"
                        }
                      }
                    },
                    "headers": {
                      "ETag": {
                        "schema": {
                          "type": "string"
                        }
                      },
                      "Cache-Control": {
                        "schema": {
                          "type": "string"
                        }
                      }
                    }
                  },
                  "206": {
                    "description": "The requested range (Content-Range)."
                  },
                  "304": {
                    "description": "Not modified (If-None-Match matched the ETag)."
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "404": {
                    "description": "No such asset for this owner.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  },
                  "416": {
                    "description": "The range lies outside the file.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/pending": {
              "get": {
                "summary": "The owner's Live Photo halves waiting for their partner.",
                "responses": {
                  "200": {
                    "description": "Pending halves.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Pending"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/v1/changes": {
              "get": {
                "summary": "Long poll: the owner's assets changed after a change sequence.",
                "parameters": [
                  {
                    "name": "since",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 0
                    },
                    "description": "Without it: the current sequence at once."
                  },
                  {
                    "name": "timeout",
                    "in": "query",
                    "schema": {
                      "type": "integer",
                      "minimum": 0,
                      "default": 25
                    },
                    "description": "Seconds to wait for a change (at most the server's limit)."
                  }
                ],
                "responses": {
                  "200": {
                    "description": "The changes (possibly none when the wait ended).",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Changes"
                        }
                      }
                    }
                  },
                  "401": {
                    "description": "No or wrong token.",
                    "content": {
                      "application/json": {
                        "schema": {
                          "$ref": "#/components/schemas/Error"
                        }
                      }
                    }
                  }
                }
              }
            },
            "/healthz": {
              "get": {
                "summary": "Health (the catalog answers).",
                "security": [],
                "responses": {
                  "200": {
                    "description": "ok"
                  },
                  "503": {
                    "description": "The catalog does not answer."
                  }
                }
              }
            },
            "/metrics": {
              "get": {
                "summary": "Prometheus text metrics.",
                "security": [],
                "responses": {
                  "200": {
                    "description": "text/plain; version=0.0.4"
                  }
                }
              }
            },
            "/v1/openapi.json": {
              "get": {
                "summary": "This document.",
                "security": [],
                "responses": {
                  "200": {
                    "description": "OpenAPI 3.1"
                  }
                }
              }
            },
            "/": {
              "get": {
                "summary": "The web page (token in the URL fragment: /#token=...).",
                "security": [],
                "responses": {
                  "200": {
                    "description": "text/html"
                  }
                }
              }
            }
          }
        }
        """#
}

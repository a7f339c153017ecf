import Foundation
import LivePairLibrary

extension LivePairService {
    /// `PUT /v1/uploads/{uploadID}`: the body is one file, streamed to a spool file while hashed,
    /// then handed to the ingestor. 201 accepted, 202 pending, 200 duplicate, 422 rejected; a
    /// retry with the same upload ID and bytes gets the same answer, the same ID with other bytes
    /// 409 with the first answer.
    func uploadRoutes() -> [Route] {
        [
            Route(
                method: "PUT", pattern: "/v1/uploads/{uploadID}", authenticated: true, kind: .upload,
                respond: { [self] context throws(HTTPError) in try upload(context) },
                respondWithoutBlocking: { context throws(HTTPError) in
                    // A form (a browser's or `curl -F`) wraps the file: refused from the headers, before the body is kept.
                    if context.request.header("content-type")?.lowercased().hasPrefix("multipart/") == true { throw Self.multipartRefused }
                    return nil
                })
        ]
    }

    /// 415 for a multipart body: the file must be the body itself.
    static let multipartRefused = HTTPError(
        status: 415, "send the file itself as the body (curl -T FILE, or --data-binary @FILE), not a multipart form")

    private func upload(_ context: RouteContext) throws(HTTPError) -> HTTPResponse {
        let uploadID = context.parameter("uploadID")
        guard uploadID.count <= 200, uploadID.unicodeScalars.allSatisfy(Self.uploadIDCharacters.contains) else {
            throw .badRequest("the upload ID must be 1 to 200 letters, digits, '-', '_', '.' or '~'")
        }
        let upload: SpooledUpload
        switch context.body {
        case let .spooled(spooled): upload = spooled
        case let .tooLarge(limit): throw .tooLarge(limit)
        case let .failed(reason): throw .internal(reason)
        case .none: throw .badRequest("the body is missing")
        }
        defer { unlink(upload.path) }
        // Only sha-256 is checked; a header naming other algorithms only is ignored (docs/http.md).
        if let header = context.request.header("content-digest"), let expected = try ContentDigestHeader.sha256(in: header) {
            guard expected == upload.sha256 else { throw .badRequest("Content-Digest does not match the body") }
        }
        let filename = try Self.originalFilename(context.request.header("x-original-filename"))
        let folder = try Self.originalFolder(context.request.header("x-original-folder"))
        // One upload per owner and ID at a time on this node (a retry waits for the first's answer).
        // The ID's bytes are checked in the ingest transaction, so two nodes cannot both take one ID.
        let key = "\(context.owner.utf8.count):\(context.owner)|\(uploadID)"
        return try uploadsInFlight.exclusively(key) { () throws(HTTPError) -> HTTPResponse in
            let outcome: IngestOutcome
            do throws(LibraryError) {
                // Hashed once, while it was spooled: the store takes that digest instead of reading the file again.
                outcome = try ingestor.ingest(
                    fileAt: upload.path, owner: context.owner, originalFilename: filename, uploadID: uploadID,
                    knownContent: StoredResource(digest: ContentDigest(bytes: upload.sha256), size: UInt64(upload.size)),
                    folder: folder)
            } catch {
                if case let .uploadConflict(_, first) = error { return try conflictResponse(uploadID, owner: context.owner, first: first) }
                throw .internal("the upload could not be stored", cause: error)
            }
            if outcome.kind == "accepted" { jobWorker.wake() }  // its derivative jobs were queued with it
            var response = try outcomeResponse(outcome, uploadID: uploadID, owner: context.owner)
            response.annotations["outcome"] = outcome.kind
            response.annotations["upload_id"] = uploadID
            return response
        }
    }

    /// 409 for `uploadID`, which already named other bytes of `owner` that made or found an asset
    /// still there, or are pending (`first`): the body carries that first upload's answer.
    private func conflictResponse(_ uploadID: String, owner: String, first outcome: IngestOutcome) throws(HTTPError) -> HTTPResponse {
        let first = try outcomeResponse(outcome, uploadID: uploadID, owner: owner)
        guard case let .bytes(firstBody) = first.body, let id = JSONText.encode(uploadID) else {
            throw .internal("cannot encode the response")
        }
        let body = Array(#"{"first":"#.utf8) + firstBody + Array(#","outcome":"conflict","uploadID":"#.utf8) + id + Array("}".utf8)
        var response = HTTPResponse(
            status: 409, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: .bytes(body))
        response.annotations["outcome"] = "conflict"
        response.annotations["upload_id"] = uploadID
        return response
    }

    /// The answer for `outcome`: 201 accepted, 200 duplicate, 202 pending, 422 rejected.
    private func outcomeResponse(_ outcome: IngestOutcome, uploadID: String, owner: String) throws(HTTPError) -> HTTPResponse {
        switch outcome {
        case let .accepted(identifier):
            return try outcomeResponse(outcome, asset: identifier, owner: owner, status: 201)
        case let .duplicate(identifier):
            return try outcomeResponse(outcome, asset: identifier, owner: owner, status: 200)
        case let .pending(contentIdentifier):
            return JSONText.response(
                PendingBody(outcome: "pending", uploadID: uploadID, contentIdentifier: contentIdentifier), status: 202)
        case let .rejected(findings):
            return JSONText.response(
                RejectedBody(outcome: "rejected", uploadID: uploadID, findings: findings.map(FindingRepresentation.init)),
                status: 422)
        }
    }

    private func outcomeResponse(_ outcome: IngestOutcome, asset identifier: String, owner: String, status: Int) throws(HTTPError)
        -> HTTPResponse
    {
        let (asset, resources) = try ownedAsset(identifier, owner: owner)
        return JSONText.response(
            AssetOutcomeBody(outcome: outcome.kind, asset: try representation(asset, resources: resources)), status: status)
    }

    /// Characters of an upload ID (RFC 3986 unreserved).
    static let uploadIDCharacters: CharacterSet = {
        var set = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        set.insert(charactersIn: "-._~")
        return set
    }()

    /// The client's file name: percent-decoded, kept as data (never a path), at most 255 characters.
    static func originalFilename(_ header: String?) throws(HTTPError) -> String? {
        guard let header, !header.isEmpty else { return nil }
        let name = header.removingPercentEncoding ?? header
        guard name.count <= 255, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badRequest("X-Original-Filename must be at most 255 characters without control characters")
        }
        return name
    }

    /// The client's folder of the upload (`X-Original-Folder`, percent-encoded or plain): an edit's
    /// render and .AAE join their original by name within one folder (docs/editing.md); nil when
    /// absent (the owner's uploads count as one folder).
    static func originalFolder(_ header: String?) throws(HTTPError) -> String? {
        guard let header, !header.isEmpty else { return nil }
        let folder = header.removingPercentEncoding ?? header
        guard folder.utf8.count <= 4096, !folder.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw .badRequest("X-Original-Folder must be at most 4096 bytes without control characters")
        }
        return folder
    }
}

private struct AssetOutcomeBody: Encodable {
    var outcome: String
    var asset: AssetRepresentation
}

private struct PendingBody: Encodable {
    var outcome: String
    var uploadID: String
    var contentIdentifier: String
}

private struct RejectedBody: Encodable {
    var outcome: String
    var uploadID: String
    var findings: [FindingRepresentation]
}

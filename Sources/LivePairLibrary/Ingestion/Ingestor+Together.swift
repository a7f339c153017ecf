import LivePair

extension Ingestor {
    /// Ingests `uploads` as one group (for tests, which need groups of a known make-up): each is
    /// stored in turn, then all are decided by one group commit (members that conflict with an
    /// earlier one in the following groups), and moved uploads are unlinked. No retry on
    /// `resourceMissing`; results in the order given.
    func ingestTogether(
        _ uploads: [(path: String, owner: String, originalFilename: String?)]
    ) -> [Result<IngestOutcome, LibraryError>] {
        var results: [Result<IngestOutcome, LibraryError>?] = Array(repeating: nil, count: uploads.count)
        var members: [(Int, IngestMember)] = []
        for (index, upload) in uploads.enumerated() {
            let name = upload.originalFilename ?? "upload"
            let identity = identifyUpload(upload.path, originalFilename: upload.originalFilename)
            let editName = upload.originalFilename.flatMap {
                IngestEditName(fileName: $0, isAdjustmentData: identity.role == .adjustmentData)
            }
            let classification = UploadClassification(identity, name: name, editName: editName, options: options)
            if case let .rejected(findings) = classification {
                results[index] = .success(.rejected(findings))
                continue
            }
            do throws(LibraryError) {
                switch try stage(
                    upload.path, classification: classification, identity: identity, owner: upload.owner,
                    originalFilename: upload.originalFilename, uploadID: nil, name: name,
                    edit: editName.map { ($0, $0.groupKey(owner: upload.owner, folder: nil)) })
                {
                case let .decided(outcome): results[index] = .success(outcome)
                case let .waiting(member): members.append((index, member))
                }
            } catch {
                results[index] = .failure(error)
            }
        }
        var waiting = members.map(\.1)
        while !waiting.isEmpty { waiting = commitGroup(waiting) }
        for (index, member) in members {
            // Delivered already: the wait returns at once.
            results[index] = member.wait() ?? .failure(.invalidRequest("an upload of the group was not decided"))
        }
        return uploads.indices.map { index in
            let result = results[index] ?? .failure(.invalidRequest("an upload was not decided"))
            if case let .success(outcome) = result { finishMove(of: uploads[index].path, outcome: outcome) }
            return result
        }
    }
}

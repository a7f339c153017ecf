import LivePair
import LivePairCrypto
import LivePairLogging

extension Ingestor {
    /// Logs one decision: the outcome, the asset or content identifier, the finding codes, the
    /// upload ID and a hash of the owner (never the owner itself).
    func logDecision(_ outcome: IngestOutcome, owner: String, uploadID: String?) {
        logger.info(
            "ingest decision",
            metadata: {
                var metadata: LogMetadata = ["outcome": .string(outcome.kind), "owner_hash": .string(Self.ownerHash(owner))]
                if let uploadID { metadata["upload_id"] = .string(uploadID) }
                switch outcome {
                case let .accepted(identifier), let .duplicate(identifier): metadata["asset"] = .string(identifier)
                case let .pending(contentIdentifier): metadata["content_identifier"] = .string(contentIdentifier)
                case let .rejected(findings): metadata["findings"] = .string(findings.map(\.code.rawValue).joined(separator: ","))
                }
                return metadata
            }())
    }

    /// The first 12 hex digits of the owner's SHA-256: enough to follow one owner through the logs
    /// without writing who it is.
    public static func ownerHash(_ owner: String) -> String {
        SHA256.hash(Array(owner.utf8)).prefix(6).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}

/// What a finding does to an upload a backend receives (`Ingestor`, and the library's check of a
/// new Live Photo): a backend never loses an upload for a reason that can be fixed later.
public enum UploadEffect: String, Sendable, Equatable, CaseIterable {
    /// The upload cannot be taken: unreadable, unsafe, or in conflict with what is there.
    case rejectsUpload = "rejects-upload"
    /// The upload is taken and the finding is kept on the asset (not Photos-ready, or cosmetic);
    /// exports for Apple Photos fix what can be fixed.
    case acceptedWithFlag = "accepted-with-flag"
}

extension FindingCode {
    /// What a finding with this code does to an upload (from the rule catalog; a code outside the
    /// catalog rejects).
    public var uploadEffect: UploadEffect { ValidationRule.rule(for: self)?.uploadEffect ?? .rejectsUpload }

    /// True when a finding with this code makes an upload (or a new Live Photo) be refused.
    public var rejectsUpload: Bool { uploadEffect == .rejectsUpload }
}

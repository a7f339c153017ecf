/// The bytes of a file to write, front to back: ranges copied from sources (streamed in chunks,
/// never loaded whole) and new bytes. Built first, so every check runs before anything is written.
struct MotionPhotoOutputPlan {
    /// One piece of the output.
    enum Piece {
        /// A range of a source, copied verbatim.
        case copy(any ByteSource, Range<UInt64>)
        /// New bytes.
        case bytes([UInt8])
    }

    /// The pieces in output order.
    private(set) var pieces: [Piece] = []
    /// The output size so far.
    private(set) var size: UInt64 = 0

    /// Appends `range` of `source` (nothing when empty).
    mutating func copy(_ source: any ByteSource, _ range: Range<UInt64>) {
        guard !range.isEmpty else { return }
        pieces.append(.copy(source, range))
        size += range.upperBound - range.lowerBound
    }

    /// Appends `bytes` (nothing when empty).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        pieces.append(.bytes(bytes))
        size += UInt64(bytes.count)
    }

    /// Appends `parts`, whose copies read `source`.
    mutating func append(_ parts: [JPEGMultiPictureIndex.Part], from source: any ByteSource) {
        for part in parts {
            switch part {
            case let .copy(range): copy(source, range)
            case let .bytes(bytes): append(bytes)
            }
        }
    }

    /// Appends the pieces of a HEIF `meta` rewrite, whose copies read `source`.
    mutating func append(_ plan: HEIFMetaRewriter.Plan, source: any ByteSource) {
        for piece in plan.pieces {
            switch piece {
            case let .copy(range): copy(source, range)
            case let .bytes(bytes): append(bytes)
            }
        }
    }

    /// Sends every piece to `sink`.
    func emit(to sink: any ByteSink) throws(FormatError) {
        for piece in pieces {
            switch piece {
            case let .copy(source, range): try sink.copy(from: source, range: range)
            case let .bytes(bytes): try sink.write(bytes)
            }
        }
    }
}

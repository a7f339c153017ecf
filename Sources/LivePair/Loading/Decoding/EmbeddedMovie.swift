/// A movie embedded in another file (a motion photo's video), named by a path-like reference,
/// `FILE#livepair-embedded=OFFSET,LENGTH`, that `MediaMovieDecoder` accepts wherever it takes a
/// movie path. A Live Photo loaded from a motion photo has it as its `videoPath`.
public struct EmbeddedMovie: Hashable, Sendable {
    /// The file holding the movie.
    public let containerPath: String
    /// Where the movie's bytes start in the file.
    public let offset: UInt64
    /// How many bytes the movie has.
    public let length: UInt64

    private static let marker = "#livepair-embedded="

    /// The movie of `length` bytes at `offset` in the file at `containerPath`.
    public init(containerPath: String, offset: UInt64, length: UInt64) {
        self.containerPath = containerPath
        self.offset = offset
        self.length = length
    }

    /// Reads a reference made by `reference`; nil for a plain path.
    public init?(reference: String) {
        guard let range = reference.ranges(of: Self.marker).last else { return nil }
        let numbers = reference[range.upperBound...].split(separator: ",")
        guard numbers.count == 2, let offset = UInt64(numbers[0]), let length = UInt64(numbers[1]), length > 0 else {
            return nil
        }
        self.init(containerPath: String(reference[..<range.lowerBound]), offset: offset, length: length)
    }

    /// `FILE#livepair-embedded=OFFSET,LENGTH`.
    public var reference: String { "\(containerPath)\(Self.marker)\(offset),\(length)" }
}

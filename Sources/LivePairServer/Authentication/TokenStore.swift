import Foundation
import Synchronization

/// Bearer tokens and the owner each stands for, read from a file of `TOKEN OWNER` lines (blank
/// lines and `#` comments ignored, LF or CRLF line ends; at least one token) and reloadable while serving (`livepair serve` reloads on SIGHUP).
public final class TokenStore: Sendable {
    /// Why a tokens file cannot be used.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, with the line number (never the token).
        public let description: String
    }

    /// The file, when the tokens came from one.
    public let path: String?
    private let owners: Mutex<[String: String]>

    /// Tokens given directly (token to owner).
    public init(tokens: [String: String]) {
        path = nil
        owners = Mutex(tokens)
    }

    /// Tokens read from `path`.
    public init(contentsOf path: String) throws(LoadError) {
        self.path = path
        owners = Mutex(try Self.read(path))
    }

    /// The owner `token` stands for, or nil.
    public func owner(for token: String) -> String? { owners.withLock { $0[token] } }

    /// How many tokens are known.
    public var count: Int { owners.withLock { $0.count } }

    /// Reads the file again; on an error the tokens in use stay as they were.
    public func reload() throws(LoadError) {
        guard let path else { return }
        let fresh = try Self.read(path)
        owners.withLock { $0 = fresh }
    }

    /// Parses a tokens file (LF or CRLF line ends).
    /// - Throws: `LoadError` with the system's reason when it cannot be read, the line of a
    ///   malformed entry or a token listed twice, or when it holds no token at all (empty, or only
    ///   blank and comment lines: a server nobody can use is a mistake, not a configuration).
    static func read(_ path: String) throws(LoadError) -> [String: String] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw LoadError(description: "cannot read the tokens file \(path): \(String(cString: strerror(errno)))")
        }
        let data = (try? FileHandle(fileDescriptor: descriptor, closeOnDealloc: true).readToEnd()) ?? Data()
        guard let text = String(data: data, encoding: .utf8) else {
            throw LoadError(description: "\(path): the tokens file is not UTF-8 text")
        }
        var owners: [String: String] = [:]
        // Split on any line end: "\r\n" is one Character in Swift, which a split on "\n" would miss.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2 else {
                throw LoadError(description: "\(path):\(index + 1): expected 'TOKEN OWNER'")
            }
            guard owners[String(fields[0])] == nil else {
                throw LoadError(description: "\(path):\(index + 1): a token is listed twice")
            }
            owners[String(fields[0])] = String(fields[1])
        }
        guard !owners.isEmpty else {
            throw LoadError(description: "\(path): the tokens file has no 'TOKEN OWNER' line (it is empty or only comments)")
        }
        return owners
    }
}

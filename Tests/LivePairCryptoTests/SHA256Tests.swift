import Foundation
import LivePairCrypto
import TestSupport
import Testing

@Suite("SHA-256 through libcrypto")
struct SHA256Tests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }

    /// The FIPS 180-4 / NIST example messages.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func nistVectors(message: String, expected: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == expected)
    }

    /// One million "a", fed in uneven chunks.
    @Test func oneMillionAsInUnevenChunks() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: 0x61, count: 997)
        var fed = 0
        while fed < 1_000_000 {
            let count = min(chunk.count - (fed % 7), 1_000_000 - fed)
            hasher.update(Array(chunk[0..<count]))
            fed += count
        }
        #expect(Self.hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every split of a message into two updates gives the one-shot digest (block boundaries, padding lengths 55/56/64).
    @Test func splitsMatchOneShot() {
        for length in [0, 1, 55, 56, 63, 64, 65, 119, 120, 128, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hash(message)
            for split in 0...length {
                var hasher = SHA256()
                hasher.update(Array(message[0..<split]))
                hasher.update(Array(message[split...]))
                #expect(hasher.finalize() == whole, "length \(length) split at \(split)")
            }
        }
    }

    /// A copy made part-way continues on its own.
    @Test func copiesAreIndependent() {
        var first = SHA256()
        first.update(Array("ab".utf8))
        var second = first
        second.update(Array("c".utf8))
        first.update(Array("x".utf8))
        #expect(Self.hex(second.finalize()) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Self.hex(first.finalize()) == Self.hex(SHA256.hash(Array("abx".utf8))))
    }

    /// Digests of the real samples agree with `sha256sum` and with the manifest.
    @Test func realFilesMatchSha256sum() throws {
        let files = SampleMedia.manifest.map(\.file).filter { $0.hasPrefix("live/") || $0.hasPrefix("motion/") }
        #expect(files.count >= 10)
        let output = try ReferenceTool.run("sha256sum", files.map(SampleMedia.path))
        var expected: [String: String] = [:]
        for line in output.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            expected[String(parts[1].drop { $0 == " " || $0 == "*" })] = String(parts[0])
        }
        for file in files {
            let digest = Self.hex(SHA256.hash(try SampleMedia.bytes(file)))
            #expect(digest == expected[SampleMedia.path(file)], "\(file)")
            #expect(digest == SampleMedia.entry(file)?.sha256, "\(file) manifest")
        }
    }
}

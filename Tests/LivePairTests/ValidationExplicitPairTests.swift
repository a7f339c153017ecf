import LivePair
import TestSupport
import Testing

@Suite("Validating an explicit pair")
struct ValidatorExplicitPairTests {
    private func resource(_ file: String) -> AssetResource {
        AssetResource(ResourceIdentifier().identify(path: SampleMedia.path(file)))
    }

    @Test("halves with different identifiers are an error; a real pair is clean")
    func explicitPair() {
        let mismatched = Validator().validatePair(photo: resource("live/train.jpg"), video: resource("live/IMG_3582.mov"))
        #expect(mismatched.assets.count == 1)
        #expect(mismatched.assets.first?.findings.contains { $0.code == .identifierMismatch && $0.severity == .error } == true)
        #expect(mismatched.hasErrors)
        let real = Validator().validatePair(photo: resource("live/train.jpg"), video: resource("live/train.mov"))
        #expect(real.allFindings.isEmpty)
    }
}

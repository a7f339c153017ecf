import Foundation
import LivePair
@testable import LivePairLibrary
import TestSupport
import Testing

@Suite("Ingestion in every order")
struct IngestEveryOrderTests {
    /// Every permutation of `items`.
    static func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test("the four halves of two real pairs, in all 24 orders, give the same library: two Live Photos, nothing pending", arguments: CatalogKind.underTest)
    func allOrdersOfTwoPairs(_ kind: CatalogKind) throws {
        let halves = [
            "live/IMG_4580.HEIC", "live/IMG_4580.mov", "live/train.jpg", "live/train.mov",
        ]
        let orders = Self.permutations(halves)
        #expect(orders.count == 24)
        var reference: IngestSnapshot?
        for (number, order) in orders.enumerated() {
            let fixture = try IngestFixture("order-\(number)", kind)
            defer { fixture.remove() }
            let library = try fixture.open()
            let ingestor = Ingestor(library: library)
            var outcomes: [IngestOutcome] = []
            for file in order {
                outcomes.append(try ingestor.ingest(fileAt: SampleMedia.path(file), owner: "owner", originalFilename: file))
            }
            // A half waits for its partner; the partner's arrival links the pair.
            for (index, file) in order.enumerated() {
                let partnerArrivedBefore = order[..<index].contains { $0.hasPrefix(String(file.prefix(while: { $0 != "." }))) }
                if partnerArrivedBefore {
                    guard case .accepted = outcomes[index] else {
                        Issue.record("order \(order): \(file) gave \(outcomes[index]), expected accepted")
                        continue
                    }
                } else {
                    guard case .pending = outcomes[index] else {
                        Issue.record("order \(order): \(file) gave \(outcomes[index]), expected pending")
                        continue
                    }
                }
            }
            let snapshot = try IngestInvariants.check(library)
            #expect(snapshot.assets.count == 2 && snapshot.pending.isEmpty, "order \(order): \(snapshot)")
            if let reference {
                #expect(snapshot == reference, "order \(order) differs")
            } else {
                reference = snapshot
            }
        }
    }
}

import LivePairFormats
import Testing

/// `EditListTrim.edits`: a track's edit list cut to a window of the movie timeline.
@Suite("Edit lists cut to a trim window")
struct EditListTrimTests {
    @Test("a track shown from time zero: the window's start becomes the edit's media time")
    func wholeTrack() {
        let edits = [EditListEntry(segmentDuration: 1146, mediaTime: 0, mediaRate: 1)]
        // IMG_3582's sound: 44,100 ticks a second, the movie 600.
        #expect(EditListTrim.edits(edits, trackDuration: 1146, mediaTimescale: 44_100, movieTimescale: 600, window: 300..<900)
            == [EditListEntry(segmentDuration: 600, mediaTime: 22_050, mediaRate: 1)])
        // No edit list: one edit from media time zero as long as the track.
        #expect(EditListTrim.edits([], trackDuration: 740, mediaTimescale: 600, movieTimescale: 600, window: 100..<1000)
            == [EditListEntry(segmentDuration: 640, mediaTime: 100, mediaRate: 1)])
    }

    @Test("a still-image-time track (a gap, then one tick): the gap shortens by the window's start")
    func stillImageTimeTrack() {
        let edits = [
            EditListEntry(segmentDuration: 799, mediaTime: -1, mediaRate: 1),
            EditListEntry(segmentDuration: 1, mediaTime: 0, mediaRate: 1),
        ]
        #expect(EditListTrim.edits(edits, trackDuration: 800, mediaTimescale: 600, movieTimescale: 600, window: 300..<900)
            == [EditListEntry(segmentDuration: 499, mediaTime: -1, mediaRate: 1), EditListEntry(segmentDuration: 1, mediaTime: 0, mediaRate: 1)])
        // A window that ends before the tick keeps only the gap; one after it keeps nothing.
        #expect(EditListTrim.edits(edits, trackDuration: 800, mediaTimescale: 600, movieTimescale: 600, window: 0..<600)
            == [EditListEntry(segmentDuration: 600, mediaTime: -1, mediaRate: 1)])
        #expect(EditListTrim.edits(edits, trackDuration: 800, mediaTimescale: 600, movieTimescale: 600, window: 800..<900).isEmpty)
    }

    @Test("hostile edits (a rate or media time that leaves 64 bits, durations that overflow) are dropped, never a trap")
    func hostileEdits() {
        let edits = [
            EditListEntry(segmentDuration: UInt64.max, mediaTime: Int64.max - 1, mediaRate: 1),
            EditListEntry(segmentDuration: 10, mediaTime: 0, mediaRate: 32767),
            EditListEntry(segmentDuration: 1000, mediaTime: 0, mediaRate: 1e300),
        ]
        #expect(EditListTrim.edits(edits, trackDuration: 0, mediaTimescale: 44_100, movieTimescale: 1, window: 5..<UInt64.max).isEmpty)
        #expect(EditListTrim.edits(edits, trackDuration: 0, mediaTimescale: 1, movieTimescale: 1, window: 0..<1)
            == [EditListEntry(segmentDuration: 1, mediaTime: Int64.max - 1, mediaRate: 1)])
    }
}

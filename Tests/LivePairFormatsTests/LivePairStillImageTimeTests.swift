import LivePairFormats
import Testing

@Suite("XMP: LivePair:StillImageTime, Apple's exact still time in a motion photo")
struct LivePairStillImageTimeTests {
    @Test("ticks/timescale reads back exactly; anything else is no time")
    func parsing() {
        let train = LivePairStillImageTime(xmpValue: "288/600")
        #expect(train?.ticks == 288 && train?.timescale == 600 && train?.seconds == 0.48)
        #expect(LivePairStillImageTime(xmpValue: " 721/600\n")?.xmpValue == "721/600")
        for bad in ["0.48", "-1/600", "288/0", "288/", "/600", "288/600/1", "", "+288/600", "288/4294967296", "1e3/600"] {
            #expect(LivePairStillImageTime(xmpValue: bad) == nil, "\(bad)")
        }
        #expect(LivePairStillImageTime(ticks: 1 << 53, timescale: 600) == nil)
    }

    @Test("written beside the Camera properties, read into the packet, removed with them")
    func writtenAndRemoved() throws {
        let time = try #require(LivePairStillImageTime(ticks: 721, timescale: 600))
        let writer = MotionPhotoXMPWriter(
            presentationTimestampUs: 1_168_333, primaryMime: "image/jpeg", videoLength: 1000, stillImageTime: time)
        let packet = try writer.packet()
        let text = String(decoding: packet, as: UTF8.self)
        #expect(text.contains("xmlns:LivePair=\"http://ns.livepair.dev/motion-photo/1.0/\""))
        #expect(text.contains("LivePair:StillImageTime=\"721/600\""))
        #expect(LivePairStillImageTime(MotionPhotoXMP(packet)) == time)
        // Written again without a time, the old one goes; made plain, nothing of it is left.
        var without = writer
        without.stillImageTime = nil
        #expect(LivePairStillImageTime(MotionPhotoXMP(try without.merged(into: packet))) == nil)
        let plain = try MotionPhotoXMPWriter.removingMotionPhoto(from: packet, keeping: writer.directory.prefix(1).map { $0 })
        #expect(plain.map { !String(decoding: $0, as: UTF8.self).contains("StillImageTime") } ?? true)
    }
}

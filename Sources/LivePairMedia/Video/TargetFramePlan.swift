internal import CFFmpeg

/// The packets of a movie's video stream read ahead from the seek point (demuxing only, no
/// decoding) to a little past a target time, and what they say about the frame to decode: the
/// presentation time of the frame nearest the target, and the packet to start decoding from
/// (the last key frame at or before that frame).
///
/// Reading ahead is what makes the single-frame decode cheap: FFmpeg 5.1's QuickTime seek lands
/// on an earlier key frame than needed when the nearest one is an HEVC open-GOP (CRA) picture
/// (its check counts the track's decode-time shift twice), and only the packets' own times say
/// which frame will be shown and which packets can be skipped.
final class TargetFramePlan {
    /// The packets read, in decode order; freed with the plan.
    private(set) var packets: [UnsafeMutablePointer<AVPacket>] = []
    /// The presentation time (stream ticks) of the frame nearest the target: the first frame at
    /// or after it, or the one before when that is nearer; nil when a packet has no time (the
    /// decode then falls back to taking frames as they come).
    private(set) var chosenTicks: Int64?
    /// The index in `packets` of the first packet to decode.
    private(set) var startIndex = 0

    /// Packets read past the first one at or after the target, at most: enough for any
    /// reordering depth HEVC or H.264 allows (16 pictures).
    static let reorderAllowance = 16
    /// The most bytes of packets held at once (one GOP of a Live Photo movie is a few MB).
    static let maximumBytes = 256 << 20

    /// Reads the packets of stream `index` from the current position of `format`.
    ///
    /// - Parameters:
    ///   - seconds: the target time; `ticksPerSecond`: the stream's time base, inverted.
    ///   - maximumPackets: the most packets read before the target is reached (then `invalidImage`).
    init(
        format: UnsafeMutablePointer<AVFormatContext>, streamIndex index: Int32, seconds: Double,
        ticksPerSecond: Double, maximumPackets: Int, cancellation: CancellationFlag
    ) throws(MediaError) {
        let noValue = livepair_av_nopts_value()
        let tolerance = 0.5 / ticksPerSecond
        var pastTarget = 0
        var bytes = 0
        while true {
            if cancellation.isCancelled { throw .cancelled }
            guard let packet = av_packet_alloc() else {
                throw .decodeFailed(code: livepair_averror(ENOMEM), message: "av_packet_alloc")
            }
            let read = av_read_frame(format, packet)
            guard read >= 0, packet.pointee.stream_index == index else {
                var owned: UnsafeMutablePointer<AVPacket>? = packet
                av_packet_free(&owned)
                if read >= 0 { continue }
                if FFmpegCall.isEndOfFile(read) { break }
                if cancellation.isCancelled { throw .cancelled }
                try FFmpegCall.check(read, "av_read_frame")
                break
            }
            packets.append(packet)
            bytes += Int(packet.pointee.size)
            if bytes > Self.maximumBytes {
                throw .invalidImage(reason: "more than \(Self.maximumBytes >> 20) MiB of packets before the frame at \(seconds) s")
            }
            let pts = packet.pointee.pts
            let isKey = packet.pointee.flags & AV_PKT_FLAG_KEY != 0
            if pastTarget > 0 {
                pastTarget += 1
                if isKey || pastTarget > Self.reorderAllowance { break }
            } else if pts != noValue, Double(pts) / ticksPerSecond + tolerance >= seconds {
                pastTarget = 1
            } else if packets.count >= maximumPackets {
                throw .invalidImage(reason: "no frame at \(seconds) s within \(maximumPackets) packets")
            }
        }
        plan(seconds: seconds, ticksPerSecond: ticksPerSecond)
    }

    deinit {
        for packet in packets {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
        }
    }

    /// Picks the frame nearest `seconds` among the packets' presentation times (frames the edit
    /// list hides excluded), then the last key packet at or before it.
    private func plan(seconds: Double, ticksPerSecond: Double) {
        let noValue = livepair_av_nopts_value()
        let tolerance = 0.5 / ticksPerSecond
        var before: Int64?, after: Int64?
        for packet in packets where packet.pointee.flags & AV_PKT_FLAG_DISCARD == 0 {
            let pts = packet.pointee.pts
            guard pts != noValue else { return }
            if Double(pts) / ticksPerSecond + tolerance >= seconds {
                after = min(after ?? pts, pts)
            } else {
                before = max(before ?? pts, pts)
            }
        }
        if let after, let before, seconds - Double(before) / ticksPerSecond < Double(after) / ticksPerSecond - seconds {
            chosenTicks = before
        } else {
            chosenTicks = after ?? before
        }
        guard let chosenTicks, let chosenIndex = packets.firstIndex(where: { $0.pointee.pts == chosenTicks }) else {
            return
        }
        startIndex = packets[...chosenIndex].lastIndex { packet in
            packet.pointee.flags & AV_PKT_FLAG_KEY != 0 && packet.pointee.pts <= chosenTicks
        } ?? 0
    }
}

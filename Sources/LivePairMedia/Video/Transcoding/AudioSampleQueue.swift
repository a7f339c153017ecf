internal import CFFmpeg

/// A first-in first-out queue of planar float samples, fed with decoded audio frames of any
/// interleaved or planar integer or float format, and emptied in encoder-sized frames. It holds
/// at most one encoder frame plus one decoded frame of samples.
struct AudioSampleQueue {
    /// One array of samples per channel, all of the same length.
    private(set) var channels: [[Float]]

    /// A queue for `channelCount` channels.
    init(channelCount: Int) { channels = Array(repeating: [], count: channelCount) }

    /// Samples per channel waiting.
    var count: Int { channels.first?.count ?? 0 }

    /// Appends the samples of a decoded frame, converted to floats in -1...1.
    mutating func append(_ frame: UnsafePointer<AVFrame>) throws(MediaError) {
        let sampleCount = Int(frame.pointee.nb_samples)
        let channelCount = channels.count
        guard sampleCount > 0 else { return }
        guard Int(frame.pointee.ch_layout.nb_channels) == channelCount else {
            throw .unsupported("audio whose channel count changes (\(channelCount) to \(frame.pointee.ch_layout.nb_channels))")
        }
        guard let data = frame.pointee.extended_data else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "audio frame without data")
        }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        let packed = av_get_packed_sample_fmt(format)
        let read: (UnsafeRawPointer, Int) -> Float
        switch packed {
        case AV_SAMPLE_FMT_U8:
            read = { base, index in (Float(base.load(fromByteOffset: index, as: UInt8.self)) - 128) / 128 }
        case AV_SAMPLE_FMT_S16:
            read = { base, index in Float(base.load(fromByteOffset: index * 2, as: Int16.self)) / 32768 }
        case AV_SAMPLE_FMT_S32:
            read = { base, index in Float(Double(base.load(fromByteOffset: index * 4, as: Int32.self)) / 2_147_483_648) }
        case AV_SAMPLE_FMT_S64:
            read = { base, index in
                Float(Double(base.load(fromByteOffset: index * 8, as: Int64.self)) / 9_223_372_036_854_775_808)
            }
        case AV_SAMPLE_FMT_FLT:
            read = { base, index in base.load(fromByteOffset: index * 4, as: Float.self) }
        case AV_SAMPLE_FMT_DBL:
            read = { base, index in Float(base.load(fromByteOffset: index * 8, as: Double.self)) }
        default:
            throw .unsupported("audio sample format \(frame.pointee.format)")
        }
        for channel in 0..<channelCount {
            guard let plane = planar ? data[channel] : data[0] else {
                throw .decodeFailed(code: livepair_averror_invaliddata(), message: "audio frame without plane \(channel)")
            }
            let base = UnsafeRawPointer(plane)
            channels[channel].reserveCapacity(channels[channel].count + sampleCount)
            for sample in 0..<sampleCount {
                let index = planar ? sample : sample * channelCount + channel
                channels[channel].append(max(-1, min(1, read(base, index))))
            }
        }
    }

    /// Appends the samples of a decoded frame at the positions `kept` (of its
    /// `0..<nb_samples`), converted as `append(_:)` converts them.
    mutating func append(_ frame: UnsafePointer<AVFrame>, keeping kept: Range<Int>) throws(MediaError) {
        let before = count
        try append(frame)
        let added = count - before
        let upper = min(kept.upperBound, added), lower = min(kept.lowerBound, upper)
        for channel in channels.indices {
            channels[channel].removeSubrange((before + upper)..<(before + added))
            channels[channel].removeSubrange((before)..<(before + lower))
        }
    }

    /// Removes the first `count` samples of every channel and writes them into the planes of
    /// `frame` (planar float, already allocated for at least `count` samples).
    mutating func take(_ count: Int, into frame: UnsafeMutablePointer<AVFrame>, gain: Float = 1) throws(MediaError) {
        guard let data = frame.pointee.extended_data else {
            throw .decodeFailed(code: livepair_averror_invaliddata(), message: "audio frame without data")
        }
        for channel in channels.indices {
            guard let plane = data[channel] else {
                throw .decodeFailed(code: livepair_averror_invaliddata(), message: "audio frame without plane \(channel)")
            }
            let floats = UnsafeMutableRawPointer(plane).assumingMemoryBound(to: Float.self)
            channels[channel].withUnsafeBufferPointer { samples in
                if gain == 1 {
                    for index in 0..<count { floats[index] = samples[index] }
                } else {
                    for index in 0..<count { floats[index] = samples[index] * gain }
                }
            }
            channels[channel].removeFirst(count)
        }
    }
}

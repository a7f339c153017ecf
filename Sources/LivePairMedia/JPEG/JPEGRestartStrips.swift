/// Splits a baseline JPEG whose restart intervals fall on MCU-row boundaries into horizontal
/// strips that decode on their own, so a long decode can be stopped between strips.
///
/// Each strip is a complete JPEG: the tables of the original (quantization, Huffman, restart
/// interval, JFIF and Adobe segments; Exif, ICC and other application segments are left out),
/// a frame header whose height is the strip's, the scan header, and the entropy-coded data of
/// the strip's restart intervals. A strip starts after every eighth restart marker, so its own
/// markers run RST0, RST1, ... as a decoder expects, and DC prediction restarts with it.
/// Strips are whole MCU rows, so their heights are multiples of 8 and DCT-scaled strips stack
/// into exactly the DCT-scaled image (chroma upsampling sees the strip's edge row instead of the
/// neighbour's at the seams).
struct JPEGRestartStrips {
    /// One strip: its first row and height in the stored image, and its bytes.
    struct Strip {
        let firstRow: Int
        let height: Int
        let data: [UInt8]
    }

    /// The strips, top to bottom.
    let strips: [Strip]

    /// The strips of `data`, each at least `minimumPixels` pixels when the restart layout
    /// allows; nil when the JPEG cannot be split (progressive, no restart markers, a layout
    /// whose markers do not fall on row boundaries, or damaged data).
    init?(_ data: [UInt8], minimumPixels: Int = 1 << 20) {
        guard let layout = Layout(data) else { return nil }
        let mcusPerRow = (layout.width + layout.mcuWidth - 1) / layout.mcuWidth
        let mcuRows = (layout.height + layout.mcuHeight - 1) / layout.mcuHeight
        let interval = layout.restartInterval
        let (mcuCount, overflow) = mcusPerRow.multipliedReportingOverflow(by: mcuRows)
        guard !overflow, interval > 0 else { return nil }
        let intervalCount = (mcuCount + interval - 1) / interval
        let markers = Self.restartMarkers(data, from: layout.scanDataStart, limit: intervalCount)
        guard markers.offsets.count == intervalCount - 1, let scanEnd = markers.end else { return nil }
        let minimumRows = max(1, minimumPixels / max(1, layout.width * layout.mcuHeight))
        var boundaries = [0]
        for row in 1..<max(1, mcuRows) where row - boundaries[boundaries.count - 1] >= minimumRows {
            let firstMCU = row * mcusPerRow
            if firstMCU % interval == 0, (firstMCU / interval) % 8 == 0, mcuRows - row >= minimumRows / 2 {
                boundaries.append(row)
            }
        }
        guard boundaries.count > 1 else { return nil }
        boundaries.append(mcuRows)
        var strips: [Strip] = []
        for index in 0..<boundaries.count - 1 {
            let top = boundaries[index], bottom = boundaries[index + 1]
            let firstInterval = top * mcusPerRow / interval
            let start = firstInterval == 0 ? layout.scanDataStart : markers.offsets[firstInterval - 1] + 2
            let end = bottom == mcuRows ? scanEnd : markers.offsets[bottom * mcusPerRow / interval - 1]
            let firstRow = top * layout.mcuHeight
            let height = min(bottom * layout.mcuHeight, layout.height) - firstRow
            guard start <= end, height > 0, height <= 0xFFFF else { return nil }
            var strip: [UInt8] = [0xFF, 0xD8]
            strip.reserveCapacity(layout.header.count + layout.scanHeader.count + end - start + 4)
            strip.append(contentsOf: layout.header)
            let heightField = layout.frameHeightOffset
            strip[2 + heightField] = UInt8(height >> 8)
            strip[2 + heightField + 1] = UInt8(height & 0xFF)
            strip.append(contentsOf: layout.scanHeader)
            strip.append(contentsOf: data[start..<end])
            strip.append(contentsOf: [0xFF, 0xD9])
            strips.append(Strip(firstRow: firstRow, height: height, data: strip))
        }
        self.strips = strips
    }

    /// The offsets of the restart markers in the entropy-coded data (at most `limit`), and where
    /// that data ends (the offset of the first other marker); nil end when none was found.
    private static func restartMarkers(_ data: [UInt8], from start: Int, limit: Int) -> (offsets: [Int], end: Int?) {
        var offsets: [Int] = []
        offsets.reserveCapacity(max(0, limit - 1))
        var end: Int?
        data.withUnsafeBufferPointer { bytes in
            var index = start
            let count = bytes.count
            while index + 1 < count {
                if bytes[index] != 0xFF {
                    index += 1
                    continue
                }
                let marker = bytes[index + 1]
                if marker == 0x00 || marker == 0xFF {
                    index += marker == 0x00 ? 2 : 1
                    continue
                }
                if (0xD0...0xD7).contains(marker) {
                    guard offsets.count < limit else { return }
                    offsets.append(index)
                    index += 2
                    continue
                }
                end = index
                return
            }
        }
        return (offsets, end)
    }

    /// What the splitter needs from the markers before the scan data.
    private struct Layout {
        /// Segments kept (without SOI), with the frame header among them.
        var header: [UInt8] = []
        /// Offset in `header` of the frame header's height field.
        var frameHeightOffset = 0
        /// The SOS segment.
        var scanHeader: [UInt8] = []
        var scanDataStart = 0
        var width = 0, height = 0
        var mcuWidth = 8, mcuHeight = 8
        var restartInterval = 0

        init?(_ data: [UInt8]) {
            guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
            var offset = 2
            var componentCount = 0
            var sawFrame = false
            while offset + 4 <= data.count {
                guard data[offset] == 0xFF else { return nil }
                let marker = data[offset + 1]
                if marker == 0xFF {
                    offset += 1
                    continue
                }
                let length = Int(data[offset + 2]) << 8 | Int(data[offset + 3])
                guard length >= 2, offset + 2 + length <= data.count else { return nil }
                let segment = data[offset..<offset + 2 + length]
                switch marker {
                case 0xC0, 0xC1:  // baseline or extended sequential, Huffman
                    guard !sawFrame, length >= 8 else { return nil }
                    sawFrame = true
                    height = Int(data[offset + 5]) << 8 | Int(data[offset + 6])
                    width = Int(data[offset + 7]) << 8 | Int(data[offset + 8])
                    componentCount = Int(data[offset + 9])
                    guard width > 0, height > 0, (1...4).contains(componentCount), length >= 8 + 3 * componentCount
                    else { return nil }
                    var maximumH = 1, maximumV = 1
                    for component in 0..<componentCount {
                        let sampling = data[offset + 11 + 3 * component]
                        maximumH = max(maximumH, Int(sampling >> 4))
                        maximumV = max(maximumV, Int(sampling & 0x0F))
                    }
                    mcuWidth = componentCount == 1 ? 8 : 8 * maximumH
                    mcuHeight = componentCount == 1 ? 8 : 8 * maximumV
                    frameHeightOffset = header.count + 5
                    header.append(contentsOf: segment)
                case 0xC2...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                    return nil  // progressive, lossless, hierarchical or arithmetic: not split
                case 0xDD:
                    guard length == 4 else { return nil }
                    restartInterval = Int(data[offset + 4]) << 8 | Int(data[offset + 5])
                    header.append(contentsOf: segment)
                case 0xDB, 0xC4, 0xE0, 0xEE:  // tables, JFIF, Adobe
                    header.append(contentsOf: segment)
                case 0xDA:
                    guard sawFrame, length >= 3, Int(data[offset + 4]) == componentCount else { return nil }
                    scanHeader = Array(segment)
                    scanDataStart = offset + 2 + length
                    return
                case 0xD0...0xD9, 0x01:
                    return nil  // no scan before the data
                default:
                    break  // other application segments and comments are left out
                }
                offset += 2 + length
            }
            return nil
        }
    }
}

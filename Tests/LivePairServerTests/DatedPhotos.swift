import Foundation
import LivePairMedia
import TestSupport

/// Small generated JPEG photos with the Exif a gallery reads (date taken, camera, orientation),
/// each of its own bytes, written to a folder for `livepair import`.
enum DatedPhotos {
    /// A `width`x`height` JPEG of one shade, with `DateTimeOriginal` `taken` ("2024:05:01
    /// 10:00:00", UTC: no offset) when given, `Make`/`Model` and `Orientation`.
    static func jpeg(
        taken: String?, width: Int = 64, height: Int = 48, shade: UInt8 = 128, make: String = "LivePair", model: String = "Test Camera",
        orientation: UInt16 = 1
    ) throws -> [UInt8] {
        let exifEntries = taken.map { [TIFFBuilder.ascii(0x9003, $0)] } ?? []
        func ifd0(exifOffset: UInt32) -> [UInt8] {
            TIFFBuilder.ifd(
                at: 8,
                entries: [
                    TIFFBuilder.ascii(0x010F, make), TIFFBuilder.ascii(0x0110, model), TIFFBuilder.short(0x0112, orientation),
                    TIFFBuilder.long(0x8769, exifOffset),
                ])
        }
        let exifOffset = UInt32(8 + ifd0(exifOffset: 0).count)
        let tiff = TIFFBuilder.header() + ifd0(exifOffset: exifOffset) + TIFFBuilder.ifd(at: Int(exifOffset), entries: exifEntries)
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for index in stride(from: 0, to: pixels.count, by: 4) {
            pixels[index] = shade
            pixels[index + 1] = UInt8((index / 4) % width * 255 / max(1, width - 1))
            pixels[index + 2] = 255 &- shade
        }
        return try StillImageEncoder.jpeg(try PixelBuffer(width: width, height: height, format: .rgba8, storage: pixels), quality: 80, exifTIFF: tiff)
    }

    /// `count` photos taken one hour apart from 2020-01-01 00:00 UTC, written to a new folder under
    /// `directory` in a shuffled order of names; returns the folder.
    static func writeHourly(_ count: Int, into directory: String, seed: UInt64 = 23) throws -> String {
        let folder = directory + "/dated-\(count)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var generator = SplitMix64(seed: seed)
        let names = (0..<count).map { String(format: "photo-%04d.jpg", $0) }.shuffled(using: &generator)
        for index in 0..<count {
            let date = Date(timeIntervalSince1970: 1_577_836_800 + Double(index) * 3600)
            let bytes = try jpeg(taken: exifText(date), shade: UInt8(index % 256))
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + names[index]))
        }
        return folder
    }

    /// `date` as Exif writes it, in UTC.
    static func exifText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter.string(from: date)
    }

    /// Runs `livepair import --library LIBRARY --owner OWNER PATH...`; returns its standard output.
    @discardableResult
    static func importFiles(_ paths: [String], library: String, owner: String = "alice") throws -> String {
        try livepair(["import", "--library", library, "--owner", owner, "--quiet"] + paths)
    }

    /// Runs `livepair library settle --library LIBRARY --older-than 0s`: every pending half becomes
    /// an asset alone (a Live Photo movie whose still never came: a plain video).
    @discardableResult
    static func settlePending(library: String) throws -> String {
        try livepair(["library", "settle", "--library", library, "--older-than", "0s", "--quiet"])
    }

    /// Runs `livepair ARGUMENTS...`; returns its standard output and error, throws when it fails.
    private static func livepair(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = LivePairBinary.url
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CommandFailed(arguments: arguments, output: text) }
        return text
    }

    struct CommandFailed: Error, CustomStringConvertible {
        var arguments: [String]
        var output: String
        var description: String { "livepair \(arguments.prefix(2).joined(separator: " ")) failed: \(output)" }
    }
}

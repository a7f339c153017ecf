import Foundation
import LivePair
import LivePairCLI
import LivePairLibrary

/// The files of one `livepair import` and what the library flagged on the assets they made.
enum ImportFileList {
    /// `files` with every file named more than once (`a/x.jpg` and `a/../a/x.jpg`, a symbolic link
    /// and its target, two hard links) kept once, under its first name: one file is one upload.
    static func distinct(_ files: [String]) -> [String] {
        var seen: Set<[UInt64]> = []
        return files.filter { path in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                let device = (attributes[.systemNumber] as? NSNumber)?.uint64Value,
                let inode = (attributes[.systemFileNumber] as? NSNumber)?.uint64Value
            else { return true }  // unreadable: ingestion reports it
            return seen.insert([device, inode]).inserted
        }
    }

    /// `files` with, for each accepted or duplicate one, the warnings and errors its asset keeps
    /// about it (a finding names the file by its original filename, which the import sets to the
    /// file's name).
    static func withFlags(_ files: [ImportReport.FileResult], library: PhotoLibrary) -> [ImportReport.FileResult] {
        let identifiers = files.compactMap { file -> String? in
            switch file.outcome {
            case let .accepted(identifier), let .duplicate(identifier): return identifier
            default: return nil
            }
        }
        guard !identifiers.isEmpty,
            let assets = try? library.fetchAssets(withLocalIdentifiers: Array(Set(identifiers)))
        else { return files }
        var findings: [String: [Finding]] = [:]
        for asset in assets { findings[asset.localIdentifier] = asset.findings }
        return files.map { file in
            var result = file
            switch file.outcome {
            case let .accepted(identifier), let .duplicate(identifier):
                let name = file.path.split(separator: "/").last.map(String.init) ?? file.path
                // Information (an HEVC movie, an unusual duration) stays on the asset, not in the report.
                result.findings = (findings[identifier] ?? []).filter { $0.path == name && $0.severity >= .warning }
            default:
                break
            }
            return result
        }
    }
}

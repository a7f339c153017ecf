import Foundation
import LivePair
import LivePairCLI
import LivePairLibrary

/// The files of one `livepair import` and what the library flagged on the assets they made.
enum ImportFileList {
    /// The results of every path of `paths`, in that order: `files` holds the result of each path
    /// that was ingested, and a further path to one of those files (`links`: a hard link, a symbolic
    /// link and its target, two spellings) gets what uploading the same bytes again gives, without
    /// reading them: `duplicate` of the asset its file made or joined, or its file's pending,
    /// rejected or failed result.
    static func withLinks(_ files: [ImportReport.FileResult], paths: [String], links: [String: String]) -> [ImportReport.FileResult] {
        guard !links.isEmpty else { return files }
        var byPath: [String: ImportReport.FileResult] = [:]
        for file in files { byPath[file.path] = file }
        return paths.compactMap { path in
            guard let first = links[path] else { return byPath[path] }
            guard var result = byPath[first] else { return nil }
            result.path = path
            if let identifier = result.outcome?.localIdentifier { result.outcome = .duplicate(localIdentifier: identifier) }
            return result
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

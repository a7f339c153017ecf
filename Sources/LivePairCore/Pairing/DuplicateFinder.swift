import LivePairFormats

/// Finds files that repeat other files: byte-identical copies, and loose movies equal to the video
/// embedded in a motion photo. Reads contents only for candidates: files of equal size whose
/// identities agree (equal bytes always give equal identities), or a movie whose size equals an
/// embedded video's length. Paths to one file (the same device and inode: hard links) are
/// `same-file` duplicates found without a read; only one of them is read when it must be compared
/// with other files.
struct DuplicateFinder {
    /// Compares contents.
    let comparer: ContentComparer

    /// What identity says about a file's bytes: files whose keys differ cannot be identical.
    private struct IdentityKey: Hashable {
        let size: UInt64
        let format: FileFormat
        let role: ResourceRole
        let identifier: IdentifierKey?
        let captureDate: CaptureDate?
        let width: Int?
        let height: Int?
        let videoOffset: UInt64?
        let videoLength: UInt64?

        init(_ identity: ResourceIdentity) {
            size = identity.fileSize
            format = identity.format
            role = identity.role
            identifier = identity.contentIdentifier.map(IdentifierKey.init)
            captureDate = identity.captureDate
            width = identity.width
            height = identity.height
            videoOffset = identity.motionPhoto?.videoOffset
            videoLength = identity.motionPhoto?.videoLength
        }
    }

    /// Splits `resources` (sorted by path) into the files kept and the groups of paths that repeat
    /// another: first the further paths to one file (the same device and inode: hard links, a
    /// symbolic link and its target), each file's group of kind `same-file`, found without a read;
    /// then byte-identical copies among the files left (`identical-file`). In each group the path
    /// that is kept (the original) is the first by path whose folder also holds its Live Photo
    /// partner (a movie for a still, a still for a movie, with the same identifier), else the first
    /// by path: so a Live Photo copied into two folders pairs within one folder, never across them
    /// (ingestion case 3). Empty files are never identical copies.
    func identicalFiles(_ resources: [AssetResource]) -> (kept: [AssetResource], groups: [DuplicateGroup]) {
        let partnerFolders = Self.foldersByIdentifierAndRole(resources)
        func hasPartnerInFolder(_ resource: AssetResource) -> Bool {
            guard let identifier = resource.contentIdentifier else { return false }
            let partnerRole: ResourceRole
            switch resource.role {
            case .livePhotoStill: partnerRole = .livePhotoVideo
            case .livePhotoVideo: partnerRole = .livePhotoStill
            default: return false
            }
            return partnerFolders[PartnerKey(identifier: IdentifierKey(identifier), role: partnerRole)]?
                .contains(resource.folder) == true
        }
        func group(_ members: [Int], kind: DuplicateKind, duplicates: inout Set<Int>) -> DuplicateGroup {
            let original = members.first { hasPartnerInFolder(resources[$0]) } ?? members[0]
            let copies = members.filter { $0 != original }
            duplicates.formUnion(copies)
            return DuplicateGroup(original: resources[original].path, duplicates: copies.map { resources[$0].path }, kind: kind)
        }
        var duplicateIndices = Set<Int>()
        var groups: [DuplicateGroup] = []
        // Paths to one file: one of them stands for the file, which is read at most once.
        var pathsOfFile: [FileID: [Int]] = [:]
        for (index, resource) in resources.enumerated() {
            if let file = resource.identity.fileID { pathsOfFile[file, default: []].append(index) }
        }
        for paths in pathsOfFile.values where paths.count > 1 {
            groups.append(group(paths, kind: .sameFile, duplicates: &duplicateIndices))
        }
        var buckets: [IdentityKey: [Int]] = [:]
        for (index, resource) in resources.enumerated() where resource.identity.fileSize > 0 && !duplicateIndices.contains(index) {
            buckets[IdentityKey(resource.identity), default: []].append(index)
        }
        for bucket in buckets.values where bucket.count > 1 {
            for candidates in candidateGroups(bucket, in: resources) where candidates.count > 1 {
                for members in identicalClasses(candidates, in: resources) {
                    groups.append(group(members, kind: .identicalFile, duplicates: &duplicateIndices))
                }
            }
        }
        let kept = resources.indices.filter { !duplicateIndices.contains($0) }.map { resources[$0] }
        return (kept, groups)
    }

    /// Splits a bucket of same-size, same-identity files into groups that may be identical. Two
    /// files are compared directly; larger buckets are first split by fingerprint, so that each file
    /// is read once instead of once per other file (many same-size files cannot cost quadratic reads).
    private func candidateGroups(_ bucket: [Int], in resources: [AssetResource]) -> [[Int]] {
        guard bucket.count > 2 else { return [bucket] }
        var byFingerprint: [UInt64: [Int]] = [:]
        var unreadable: [[Int]] = []
        for index in bucket {
            if let fingerprint = comparer.fingerprint(wholeFile(resources[index])) {
                byFingerprint[fingerprint, default: []].append(index)
            } else {
                unreadable.append([index])
            }
        }
        return byFingerprint.values.map { $0.sorted() } + unreadable
    }

    /// The classes of byte-identical files among `files` (each of more than one file, in path
    /// order), comparing each file with the first of every class found so far.
    private func identicalClasses(_ files: [Int], in resources: [AssetResource]) -> [[Int]] {
        var classes: [[Int]] = []
        for index in files {
            let range = wholeFile(resources[index])
            if let match = classes.firstIndex(where: { comparer.equal(wholeFile(resources[$0[0]]), range) }) {
                classes[match].append(index)
            } else {
                classes.append([index])
            }
        }
        return classes.filter { $0.count > 1 }.map { $0.sorted() }
    }

    /// Splits `movies` (sorted by path) into the movies kept and groups of movies whose bytes equal
    /// the video embedded in one of `motionPhotos` (Google Takeout stores it next to the photo as an MP4).
    func motionPhotoVideos(
        _ movies: [AssetResource], motionPhotos: [AssetResource]
    ) -> (kept: [AssetResource], groups: [DuplicateGroup]) {
        var embeddedByLength: [UInt64: [(path: String, range: ContentRange)]] = [:]
        for photo in motionPhotos {
            guard let info = photo.identity.motionPhoto, let offset = info.videoOffset, let length = info.videoLength,
                length > 0
            else { continue }
            embeddedByLength[length, default: []].append(
                (photo.path, ContentRange(path: photo.path, offset: offset, length: length)))
        }
        guard !embeddedByLength.isEmpty else { return (movies, []) }
        var kept: [AssetResource] = []
        var copiesByPhoto: [String: [String]] = [:]
        for movie in movies {
            let candidates = embeddedByLength[movie.identity.fileSize] ?? []
            let range = wholeFile(movie)
            if let match = candidates.first(where: { comparer.equal($0.range, range) }) {
                copiesByPhoto[match.path, default: []].append(movie.path)
            } else {
                kept.append(movie)
            }
        }
        let groups = copiesByPhoto.map { DuplicateGroup(original: $0.key, duplicates: $0.value, kind: .motionPhotoVideo) }
        return (kept, groups)
    }

    /// An identifier and a role, to find where a resource's partner lives.
    private struct PartnerKey: Hashable {
        let identifier: IdentifierKey
        let role: ResourceRole
    }

    /// The folders that hold a resource with each identifier and role.
    private static func foldersByIdentifierAndRole(_ resources: [AssetResource]) -> [PartnerKey: Set<String>] {
        var folders: [PartnerKey: Set<String>] = [:]
        for resource in resources {
            guard let identifier = resource.contentIdentifier else { continue }
            folders[PartnerKey(identifier: IdentifierKey(identifier), role: resource.role), default: []].insert(resource.folder)
        }
        return folders
    }

    private func wholeFile(_ resource: AssetResource) -> ContentRange {
        .wholeFile(resource.path, size: resource.identity.fileSize)
    }
}

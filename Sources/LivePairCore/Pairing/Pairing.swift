/// One-shot pairing of a set of resources into Live Photo pairs, motion photos, orphans,
/// ambiguities and duplicates. For resources that arrive over time, use `PairingSession`.
///
/// The rules, in the order they run (also in `docs/pairing.md`):
/// 1. **Unreadable**: a file that is not a media format LivePair reads (`ResourceRole.unknown`) or
///    could not be read (`read-failed`) is unpaired as `unreadable`.
/// 2. **Paths to one file and byte-identical files**: further paths to one file (the same device
///    and inode: hard links) form a `DuplicateGroup` of kind `same-file`, found without a read;
///    files with the same size and the same bytes form one of kind `identical-file`. In each group
///    the first by path (or the one beside its Live Photo partner) is the original and takes part in pairing, the
///    others take no further part (they are not paired again and are no ambiguity). Contents are
///    compared only for files whose size and identity agree, in chunks, stopping at the first difference.
/// 3. **Motion photos** (`ResourceRole.motionPhoto`) are self-contained and listed in `motionPhotos`.
///    A loose movie whose bytes equal a motion photo's embedded video (size first, then the bytes of
///    `[videoOffset, videoOffset + videoLength)`) is a `motion-photo-video` duplicate of that photo.
/// 4. **Content identifiers**: a still and a movie pair when their identifiers are equal byte for
///    byte, whatever their names (`IMG_1234_HEVC.MOV`, `UUID_3.mov`, `IMG_1234(1).HEIC`, Takeout's
///    `.MP4`); files with equal names and different identifiers never pair. A half whose partner
///    is absent is unpaired as `missing-paired-video` (a still) or `missing-photo` (a movie).
///    Several candidates for one identifier are an `AmbiguousMatch` decided by `AmbiguityRule`:
///    same folder, then same normalised stem, then nearest capture time, then first by path; the
///    other candidates are unpaired as `lost-ambiguity`. Several stills and no movie (or the
///    reverse) choose nothing: each is an orphan, and no ambiguity is reported.
/// 5. **No identifier**: stills and movies without an identifier are unpaired as
///    `no-content-identifier`, unless `PairingOptions.matchNames` pairs them weakly by folder,
///    normalised stem and capture time (never when either half has an identifier).
///
/// Every resource given appears exactly once in the result: as a pair half, a motion photo, an
/// unpaired entry or a duplicate. A path given more than once counts once (the last one given).
/// The result depends only on the set of resources, never on their order; its lists are sorted.
public enum Pairing {
    /// Pairs `resources`. Reads file contents (through `contents`) only for duplicate candidates.
    public static func pair(
        _ resources: [AssetResource], options: PairingOptions = PairingOptions(),
        contents: any ResourceContentSource = FileContentSource()
    ) -> PairingResult {
        var byPath: [String: AssetResource] = [:]
        for resource in resources { byPath[resource.path] = resource }
        let engine = PairingEngine(
            options: options, comparer: ContentComparer(contents: contents, chunkSize: options.comparisonChunkSize, memo: nil))
        return engine.run(Array(byPath.values))
    }
}

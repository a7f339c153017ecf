/// Ties Takeout JSON sidecars to the photos and movies of one folder by name.
///
/// For a JSON named `J`, with `B` = `J` without `.json` and a trailing copy counter `(N)` moved
/// onto the media name (`NAME.jpg(1).json` describes `NAME(1).jpg`), a media file `M` matches:
/// 1. `exact`: `B` is `M`;
/// 2. `supplemental-metadata`: `B` is `M.supplemental-metadata`;
/// 3. `truncated`: `J` (without its counter) is 46 to 51 characters long and `B` is a proper start
///    of `M.supplemental-metadata` (`….supplemental-metad.json`, `….suppl.json`, and `….json`
///    on a cut name);
/// 4. `stem`: `B` is `M` without its extension (old exports).
/// Each JSON describes at most one file and each file takes one JSON, the strongest rule first,
/// then the JSON and the file whose names sort first.
public enum TakeoutSidecarMatcher {
    /// The lengths at which Takeout cuts a sidecar's whole name.
    public static let truncatedLengths = 46...51

    /// The sidecar chosen for each media name (`media name -> (json name, rule)`), among names of
    /// one folder (without folder).
    public static func match(jsonNames: [String], mediaNames: [String]) -> [String: (json: String, rule: TakeoutSidecarRule)] {
        // Each JSON is tried only against the files an index names for it (a folder of 5,000
        // photos and 5,000 sidecars is 10,000 lookups, not 25 million comparisons).
        let index = CandidateIndex(mediaNames)
        var candidates: [(json: String, media: String, rule: TakeoutSidecarRule)] = []
        for json in jsonNames.sorted() {
            for name in index.candidates(forJSON: json) {
                if let rule = rule(json: json, media: name) { candidates.append((json, name, rule)) }
            }
        }
        candidates.sort { ($0.rule, $0.json, $0.media) < ($1.rule, $1.json, $1.media) }
        var chosen: [String: (json: String, rule: TakeoutSidecarRule)] = [:]
        var usedJSON: Set<String> = []
        for candidate in candidates where chosen[candidate.media] == nil && !usedJSON.contains(candidate.json) {
            chosen[candidate.media] = (candidate.json, candidate.rule)
            usedJSON.insert(candidate.json)
        }
        return chosen
    }

    /// The rule by which the JSON named `json` describes the file named `media`, or nil.
    public static func rule(json: String, media: String) -> TakeoutSidecarRule? {
        guard json.lowercased().hasSuffix(".json"), json.count > 5 else { return nil }
        let base = String(json.dropLast(5))
        if let rule = rule(base: base, counter: nil, wholeLength: json.count, media: media) { return rule }
        guard let (stripped, counter) = splitCounter(base) else { return nil }
        return rule(base: stripped, counter: counter, wholeLength: json.count - counter.count, media: media)
    }

    private static func rule(base: String, counter: String?, wholeLength: Int, media: String) -> TakeoutSidecarRule? {
        // With a counter moved off the JSON, the media name carries it before its extension.
        var described = media
        if let counter {
            guard let (plain, mediaCounter) = splitCounter(stem(media)), mediaCounter == counter else { return nil }
            described = plain + fileExtension(media)
        }
        if base == described { return .exact }
        let supplemental = described + ".supplemental-metadata"
        if base == supplemental { return .supplementalMetadata }
        if truncatedLengths.contains(wholeLength), base.count < supplemental.count, supplemental.hasPrefix(base) {
            return .truncated
        }
        if base == stem(described), !fileExtension(described).isEmpty { return .stem }
        return nil
    }

    /// Media names by the keys a JSON name can be looked up by: the described name (the name
    /// with its copy counter moved off), its stem, and the first characters of
    /// `described.supplemental-metadata` (every truncation keeps at least 41), each under the counter.
    private struct CandidateIndex {
        static let prefixLength = 30
        private var names: [String: [String]] = [:]

        init(_ mediaNames: [String]) {
            for media in mediaNames {
                var forms = [("", media)]
                if let (plain, counter) = TakeoutSidecarMatcher.splitCounter(TakeoutSidecarMatcher.stem(media)) {
                    forms.append((counter, plain + TakeoutSidecarMatcher.fileExtension(media)))
                }
                for (counter, described) in forms {
                    for key in Set(Self.keys(described)) { names[counter + "|" + key, default: []].append(media) }
                }
            }
        }

        static func keys(_ described: String) -> [String] {
            ["name:" + described, "stem:" + TakeoutSidecarMatcher.stem(described),
             "cut:" + String((described + ".supplemental-metadata").prefix(prefixLength))]
        }

        /// The media names the JSON named `json` may describe, sorted, each once.
        func candidates(forJSON json: String) -> [String] {
            guard json.count > 5 else { return [] }
            let base = String(json.dropLast(5))
            var bases = [("", base)]
            if let (stripped, counter) = TakeoutSidecarMatcher.splitCounter(base) { bases.append((counter, stripped)) }
            var found: Set<String> = []
            for (counter, text) in bases {
                var keys = ["name:" + text, "stem:" + text]
                if text.count >= Self.prefixLength { keys.append("cut:" + String(text.prefix(Self.prefixLength))) }
                if text.hasSuffix(".supplemental-metadata") { keys.append("name:" + String(text.dropLast(22))) }
                for key in keys { found.formUnion(names[counter + "|" + key] ?? []) }
            }
            return found.sorted()
        }
    }

    /// The names of the JSON files that describe the file named `media` by the two strongest rules,
    /// `exact` and `supplemental-metadata` (with its copy counter moved, when it has one): no other
    /// JSON can take the file from them (`TakeoutEarlyAssets`).
    static func strongSidecarNames(for media: String) -> [String] {
        var names = [media + ".json", media + ".supplemental-metadata.json"]
        if let (plain, counter) = splitCounter(stem(media)) {
            let described = plain + fileExtension(media)
            names += [described + counter + ".json", described + ".supplemental-metadata" + counter + ".json"]
        }
        return names
    }

    /// The media names the JSON named `json` describes by the two strongest rules (the inverse of
    /// `strongSidecarNames`).
    static func strongMediaNames(forJSON json: String) -> [String] {
        guard json.lowercased().hasSuffix(".json"), json.count > 5 else { return [] }
        let base = String(json.dropLast(5))
        var forms = [("", base)]
        if let (stripped, counter) = splitCounter(base) { forms.append((counter, stripped)) }
        var names: [String] = []
        for (counter, text) in forms {
            for described in text.hasSuffix(".supplemental-metadata") ? [text, String(text.dropLast(22))] : [text] {
                names.append(counter.isEmpty ? described : stem(described) + counter + fileExtension(described))
            }
        }
        return names.filter { name in
            guard let rule = rule(json: json, media: name) else { return false }
            return rule <= .supplementalMetadata
        }
    }

    /// `name(12)` -> (`name`, `(12)`).
    static func splitCounter(_ text: String) -> (String, String)? {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return nil }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), open > text.startIndex else { return nil }
        return (String(text[..<open]), String(text[open...]))
    }

    /// The name without its last extension.
    static func stem(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }

    /// The last extension with its dot (`.jpg`), or "".
    static func fileExtension(_ name: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[dot...])
    }
}

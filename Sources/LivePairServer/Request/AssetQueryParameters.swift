import LivePairLibrary

/// `GET /v1/assets`'s query parameters as `FetchOptions`: `mediaType=image|video`,
/// `livePhotos=true`, `favorite=true|false`, `includeHidden=true`, `sort=KEY` (a
/// `AssetSortDescriptor.Key`, `-KEY` for descending; default `-dateTaken`, newest first). The
/// owner is always the token's.
enum AssetQueryParameters {
    /// The fetch options and the order they sort by; 400 for an unknown value.
    static func fetchOptions(_ query: [String: String], owner: String) throws(HTTPError) -> (FetchOptions, AssetSortDescriptor) {
        var conditions: [AssetPredicate] = [.owner(owner)]
        switch query["mediaType"] {
        case nil: break
        case "image"?: conditions.append(.mediaType(.image))
        case "video"?: conditions.append(.mediaType(.video))
        default: throw .badRequest("mediaType must be image or video")
        }
        if try flag(query, "livePhotos") == true { conditions.append(.livePhotos) }
        if let favorite = try flag(query, "favorite") { conditions.append(.favorite(favorite)) }
        let includeHidden = try flag(query, "includeHidden") ?? false
        let sortText = query["sort"] ?? "-dateTaken"
        let descending = sortText.hasPrefix("-")
        guard let key = AssetSortDescriptor.Key(rawValue: descending ? String(sortText.dropFirst()) : sortText) else {
            throw .badRequest(
                "sort must be one of \(AssetSortDescriptor.Key.allCases.map(\.rawValue).joined(separator: ", ")), '-' for descending")
        }
        let sort = AssetSortDescriptor(key: key, ascending: !descending)
        let options = FetchOptions(
            predicate: .and(conditions),
            sortDescriptors: [sort, AssetSortDescriptor(key: .localIdentifier, ascending: true)],
            includeHiddenAssets: includeHidden)
        return (options, sort)
    }

    private static func flag(_ query: [String: String], _ name: String) throws(HTTPError) -> Bool? {
        switch query[name] {
        case nil: return nil
        case "true"?, "1"?: return true
        case "false"?, "0"?: return false
        default: throw .badRequest("\(name) must be true or false")
        }
    }
}

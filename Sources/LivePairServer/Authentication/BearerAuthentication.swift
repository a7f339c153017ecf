import Foundation

/// Resolves a request's `Authorization: Bearer TOKEN` into its owner, once per request.
struct BearerAuthentication: Sendable {
    let tokens: TokenStore

    /// The owner of the request's token.
    /// - Throws: 401 when there is no bearer token or it is unknown.
    func owner(of request: HTTPRequest) throws(HTTPError) -> String {
        guard let header = request.header("authorization") else { throw .unauthorized }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer",
            let owner = tokens.owner(for: parts[1].trimmingCharacters(in: .whitespaces))
        else { throw .unauthorized }
        return owner
    }
}

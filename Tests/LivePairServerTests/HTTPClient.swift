import Foundation
import FoundationNetworking
import Testing

/// One response as the tests look at it.
struct ClientResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(String(decoding: body, as: UTF8.self))")
    }

    /// A header (any case).
    func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// A synchronous HTTP client over URLSession (FoundationNetworking on Linux), as a backend's
/// client would talk to `livepair serve`.
struct HTTPClient: Sendable {
    let base: String
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 32
        // A guard against a hang, not a bound on speed: a derivative made on a machine loaded by
        // other test processes can keep a request silent for minutes.
        configuration.timeoutIntervalForRequest = 900
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()

    /// Sends a request and waits for its response.
    func send(
        _ method: String, _ path: String, token: String? = nil, headers: [String: String] = [:], body: Data? = nil,
        file: String? = nil
    ) throws -> ClientResponse {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = method
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        let handler: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            box.set(data: data, response: response as? HTTPURLResponse, error: error)
            done.signal()
        }
        let task: URLSessionTask
        if let file {
            task = Self.session.uploadTask(with: request, fromFile: URL(fileURLWithPath: file), completionHandler: handler)
        } else if let body {
            task = Self.session.uploadTask(with: request, from: body, completionHandler: handler)
        } else {
            task = Self.session.dataTask(with: request, completionHandler: handler)
        }
        task.resume()
        done.wait()
        let (data, response, error) = box.get()
        if let error { throw error }
        let http = try #require(response, "no HTTP response")
        var fields: [String: String] = [:]
        for (key, value) in http.allHeaderFields { fields["\(key)"] = "\(value)" }
        return ClientResponse(status: http.statusCode, headers: fields, body: data ?? Data())
    }

    /// `PUT /v1/uploads/{id}` of the file at `path`.
    func upload(_ path: String, id: String, token: String, headers: [String: String] = [:]) throws -> ClientResponse {
        var all = headers
        all["X-Original-Filename"] = all["X-Original-Filename"] ?? (path as NSString).lastPathComponent
        return try send("PUT", "/v1/uploads/" + id, token: token, headers: all, file: path)
    }
}

private final class ResultBox: @unchecked Sendable {
    // @unchecked: written once by the completion handler before the semaphore is signalled.
    private var value: (Data?, HTTPURLResponse?, (any Error)?) = (nil, nil, nil)
    func set(data: Data?, response: HTTPURLResponse?, error: (any Error)?) { value = (data, response, error) }
    func get() -> (Data?, HTTPURLResponse?, (any Error)?) { value }
}

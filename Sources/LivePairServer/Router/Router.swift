import LivePairLibrary

/// Finds a request's route, authenticates it and turns it into the daemon's plan. Every error a
/// responder throws becomes its JSON response here, the one place errors are mapped.
struct Router: Sendable {
    let routes: [Route]
    let authentication: BearerAuthentication
    /// The most bytes an upload may have.
    let uploadLimit: Int64
    /// The origins whose pages may call the API (none by default).
    var crossOrigin = CrossOriginPolicy()

    /// The plan for `request`; for a page of an allowed origin, every response says so (CORS).
    func plan(_ request: HTTPRequest) -> ExchangePlan {
        guard let origin = crossOrigin.allowedOrigin(for: request) else { return route(request, origin: nil) }
        switch route(request, origin: origin) {
        case .respond(let response):
            return .respond(crossOrigin.decorate(response, origin: origin))
        case .receive(let spoolLimit, let offThread, let respond):
            return .receive(spoolLimit: spoolLimit, offThread: offThread) { [crossOrigin] body in
                crossOrigin.decorate(respond(body), origin: origin)
            }
        }
    }

    /// The plan of the route `request` names: its responder, a CORS preflight's answer (when its
    /// `origin` is allowed), or 404/405.
    private func route(_ request: HTTPRequest, origin: String?) -> ExchangePlan {
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.match(request.path) else { continue }
            guard route.method == request.method || (route.method == "GET" && request.method == "HEAD") else {
                allowed.append(route.method)
                continue
            }
            return plan(request, route: route, parameters: parameters)
        }
        if origin != nil, request.method == "OPTIONS", request.header("access-control-request-method") != nil, !allowed.isEmpty {
            return .respond(Self.annotate(crossOrigin.preflight(methods: allowed), route: "preflight", owner: nil))
        }
        let error: HTTPError = allowed.isEmpty ? .notFound("no such endpoint") : .methodNotAllowed(allowed)
        return .respond(Self.annotate(HTTPResponse(error: error), route: "unmatched", owner: nil))
    }

    private func plan(_ request: HTTPRequest, route: Route, parameters: [String: String]) -> ExchangePlan {
        let owner: String
        do throws(HTTPError) {
            owner = route.authenticated ? try authentication.owner(of: request) : ""
        } catch {
            return .respond(Self.annotate(HTTPResponse(error: error), route: route.pattern, owner: nil))
        }
        let known = route.authenticated ? owner : nil
        if let quick = route.respondWithoutBlocking {
            let context = RouteContext(request: request, parameters: parameters, owner: owner, body: .none)
            do throws(HTTPError) {
                if let response = try quick(context) { return .respond(Self.annotate(response, route: route.pattern, owner: known)) }
            } catch {
                return .respond(Self.annotate(HTTPResponse(error: error), route: route.pattern, owner: known))
            }
        }
        return .receive(
            spoolLimit: route.kind == .upload ? uploadLimit : nil, offThread: route.kind != .quick,
            respond: { body in
                let context = RouteContext(request: request, parameters: parameters, owner: owner, body: body)
                let response: HTTPResponse
                do throws(HTTPError) {
                    response = try route.respond(context)
                } catch {
                    response = HTTPResponse(error: error)
                }
                return Self.annotate(response, route: route.pattern, owner: known)
            })
    }

    /// Adds the route and the owner's hash (never the owner or the token) for the request log.
    static func annotate(_ response: HTTPResponse, route: String, owner: String?) -> HTTPResponse {
        var response = response
        response.annotations["route"] = route
        if let owner { response.annotations["owner_hash"] = Ingestor.ownerHash(owner) }
        return response
    }
}

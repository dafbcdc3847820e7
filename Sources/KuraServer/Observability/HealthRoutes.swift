import Hummingbird

/// `GET /healthz` (the process answers and has a free worker) and `GET /readyz` (every realm
/// opens), for probes: no token needed.
///
/// `/healthz` is 503 `saturated` while every worker is busy, since a request for a realm would then
/// wait and might be refused; it needs no worker itself, so it answers at once either way.
struct HealthRoutes: RouteSet {
    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<KuraRequestContext>) {
        group.get("healthz") { _, _ in
            let load = realms.work.load
            let workers = JSONText.object([
                ("running", String(load.running)), ("waiting", String(load.waiting)), ("limit", String(realms.work.limit)),
            ])
            guard load.running < realms.work.limit else {
                let body = JSONText.object([("status", JSONText.string("saturated")), ("workers", workers)])
                return TextResponse.json(body, status: .serviceUnavailable, headers: [("Retry-After", "1")])
            }
            return TextResponse.json(JSONText.object([("status", JSONText.string("ok")), ("workers", workers)]))
        }
        group.get("readyz") { _, _ in
            let realms = self.realms
            // Without a token the answer names no file: only a realm's name and what is wrong with it.
            try await realms.work.run {
                for name in realms.names {
                    do {
                        try realms.reading(name) { _ in }
                    } catch let problem as Problem {
                        throw Problem(status: 503, code: "not-ready", detail: problem.detail)
                    } catch {
                        throw Problem(status: 503, code: "not-ready", detail: "realm '\(name)' does not open")
                    }
                }
            }
            return TextResponse.json(JSONText.object([("status", JSONText.string("ready")), ("realms", String(realms.names.count))]))
        }
    }
}

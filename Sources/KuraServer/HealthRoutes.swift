import Hummingbird

/// `GET /healthz` (the process answers) and `GET /readyz` (every realm opens), for probes: no token needed.
struct HealthRoutes: RouteSet {
    let realms: ServedRealms

    func addRoutes(to group: RouterGroup<BasicRequestContext>) {
        group.get("healthz") { _, _ in
            ResponseMaking.json(#"{"status":"ok"}"#)
        }
        group.get("readyz") { _, _ in
            let realms = self.realms
            do {
                try await BlockingWork.run { try realms.checkAll() }
            } catch let error as ServerSetupError {
                throw Problem(status: 503, code: "not-ready", detail: error.message)
            }
            return ResponseMaking.json(JSONText.object([("status", JSONText.string("ready")), ("realms", String(realms.names.count))]))
        }
    }
}

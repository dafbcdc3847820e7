import Hummingbird

/// A family of routes that adds itself to a router group (the group brings the middleware,
/// such as authorization, that every route of the family shares).
protocol RouteSet: Sendable {
    /// Adds the routes, with paths relative to `group`.
    func addRoutes(to group: RouterGroup<KuraRequestContext>)
}

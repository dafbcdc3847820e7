import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The HTTP service of docs/service.md: the served realms behind Hummingbird's router, started and
/// stopped by a service group that shuts down gracefully on SIGTERM and SIGINT.
public struct KuraService: Sendable {
    /// The checked settings.
    public let configuration: ServerConfiguration
    private let logger: Logger

    /// A service for `configuration`, after checking it (see `ServerConfiguration.validate()`).
    public init(configuration: ServerConfiguration, logger: Logger) throws(ServerSetupError) {
        try configuration.validate()
        self.configuration = configuration
        self.logger = logger
    }

    /// The router with every route and middleware, as the server answers.
    func router() -> Router<KuraRequestContext> {
        let realms = ServedRealms(paths: configuration.realms, workers: configuration.workers, workerWait: configuration.workerWait)
        let tokens = TokenRegistry(tokens: configuration.tokens)
        // Middleware before routes: Hummingbird wraps each route in the middleware added so far.
        let metrics = ServiceMetrics()
        let limits = BodyLimits(maxBytes: configuration.maxOtherBodyBytes, idleTimeout: configuration.bodyIdleTimeout)
        // HEAD answers as GET does, without the body (HTTP asks every GET resource to take it).
        let router = Router(context: KuraRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestSettingsMiddleware(bodyLimits: limits))
        router.add(middleware: RequestLogMiddleware(logger: logger))
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: ProblemMiddleware(logger: logger))
        router.add(middleware: OriginGuardMiddleware(configuration: configuration))
        HealthRoutes(realms: realms).addRoutes(to: router.group())
        OpenAPIRoute(realms: realms, tokens: tokens).addRoutes(to: router.group())
        StudioRoutes().addRoutes(to: router.group())
        MetricsRoute(metrics: metrics, realms: realms).addRoutes(to: router.group().add(middleware: AuthorizationMiddleware(tokens: tokens, scope: .read)))
        let v1 = router.group("v1").add(middleware: AuthorizationMiddleware(tokens: tokens, scope: nil))
        let routeSets: [any RouteSet] = [
            RealmRoutes(realms: realms),
            ExportRoute(realms: realms, logger: logger, metrics: metrics, sendIdleTimeout: configuration.sendIdleTimeout),
            ObjectRoutes(realms: realms),
            BacklinksRoute(realms: realms),
            ObjectWriteRoutes(realms: realms, writeWait: configuration.writeWait),
            ImportRoute(
                realms: realms, maxBodyBytes: configuration.maxBodyBytes, writeWait: configuration.writeWait,
                bodyIdleTimeout: configuration.bodyIdleTimeout, metrics: metrics, registry: ImportRegistry()),
            DeleteRoutes(realms: realms, writeWait: configuration.writeWait),
            CheckRoute(realms: realms),
            ChangesRoute(realms: realms, feeds: ChangeFeeds(realms: realms), logger: logger),
            CopyRoute(realms: realms, writeWait: configuration.writeWait),
        ]
        for routes in routeSets { routes.addRoutes(to: v1) }
        let admin = router.group("v1").add(middleware: AuthorizationMiddleware(tokens: tokens, scope: .admin))
        MigrateRoute(realms: realms, writeWait: configuration.writeWait).addRoutes(to: admin)
        // Last: it wraps only the answer to requests no route takes.
        router.add(middleware: MethodNotAllowedMiddleware<KuraRequestContext>(
            routes: router.routes.map { (method: $0.method.rawValue, path: $0.path.description) },
            refused: { segments in await ObjectWriteRoutes.refusedMethods(at: segments, in: realms) }))
        return router
    }

    /// Every route the server answers, as `METHOD /path` with OpenAPI's `{name}` for a path
    /// parameter, read from the router (what `GET /openapi.json` must describe).
    public var routes: [String] {
        router().routes.map { "\($0.method.rawValue) \($0.path.description)" }
    }

    /// Checks the realms, listens, and serves until SIGTERM or SIGINT; running requests then get
    /// `shutdownGrace` seconds to finish before they are cancelled.
    ///
    /// `onListening` receives the bound host and port (useful with port 0).
    public func run(onListening: @escaping @Sendable (String, Int) -> Void) async throws {
        try ServedRealms(paths: configuration.realms).checkAll()
        var groupConfiguration = ServiceGroupConfiguration(
            services: [.init(service: application(onListening: onListening))], gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .milliseconds(Int64(configuration.shutdownGrace * 1000))
        try await ServiceGroup(configuration: groupConfiguration).run()
    }

    /// The application `run` serves: the router with every route and middleware, the HTTP
    /// settings and the address. Nothing is bound until it runs, so tests can drive its router in
    /// process (HummingbirdTesting) and answer as the running server does.
    package func application(onListening: @escaping @Sendable (String, Int) -> Void = { _, _ in }) -> some ApplicationProtocol {
        let host = configuration.host
        let sendIdleTimeout = TimeAmount.milliseconds(Int64(configuration.sendIdleTimeout * 1000))
        // The connection's own idle limit is for heads that never end and idle keep-alive
        // connections; it must outlast an import waiting for the realm's writer, whose body is
        // not read meanwhile.
        let idleSeconds = max(60, configuration.writeWait + configuration.bodyIdleTimeout + 30)
        let http = HTTP1Channel.Configuration(
            additionalChannelHandlers: [SendStallGuard(timeout: sendIdleTimeout)],
            idleTimeout: .milliseconds(Int64(idleSeconds * 1000)))
        return Application(
            router: router(),
            server: .http1(configuration: http),
            configuration: ApplicationConfiguration(address: .hostname(host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in onListening(host, channel.localAddress?.port ?? 0) },
            logger: logger)
    }
}

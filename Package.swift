// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Kura",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Kura", targets: ["Kura"]),
        .library(name: "KuraServer", targets: ["KuraServer"]),
        .library(name: "KuraClient", targets: ["KuraClient"]),
        .executable(name: "kura", targets: ["KuraCommandLine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        // The HTTP service (`kura serve`).
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", exact: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", exact: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1"),
        .package(url: "https://github.com/apple/swift-http-types", exact: "1.8.0"),
        // NIOCore, for the channel handler that closes connections whose clients stopped reading.
        .package(url: "https://github.com/apple/swift-nio", exact: "2.101.3"),
        // SHA-256, for stored token digests and entity tags (already resolved, through swift-nio-extras).
        .package(url: "https://github.com/apple/swift-crypto", exact: "4.5.2"),
        // PostgreSQL realms: the wire protocol, COPY for bulk imports, and TLS when a realm's URL asks for it.
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", exact: "2.37.6"),
        // KuraClient, and the command line's realms on other machines: HTTP/1.1 and TLS, bodies streamed both ways.
        .package(url: "https://github.com/swift-server/async-http-client", exact: "1.37.0"),
        // `swift package generate-documentation --target Kura` builds Sources/Kura/Kura.docc.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(
            name: "Kura",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API, for binding values on bulk writes without GRDB's argument arrays.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Yams", package: "Yams"),
                "CKuraSQLite",
                "CKuraCells",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The SQLite set-up calls Swift cannot make (sqlite3_config is variadic).
        .target(
            name: "CKuraSQLite",
            dependencies: ["CKuraCells"],
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        // The cell a row is staged in, whichever engine writes it.
        .target(name: "CKuraCells"),
        // `kura serve` (docs/service.md) over Hummingbird, using only Kura's public API.
        .target(
            name: "KuraServer",
            dependencies: [
                "Kura",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            // Kura Studio's page, styles and scripts, compiled into the binary as bytes: a copied
            // `kura` serves them with no file beside it, and no step builds or fetches them.
            resources: [
                .embedInCode("Studio/Resources/index.html"),
                .embedInCode("Studio/Resources/studio.css"),
                .embedInCode("Studio/Resources/core.js"),
                .embedInCode("Studio/Resources/values.js"),
                .embedInCode("Studio/Resources/wire.js"),
                .embedInCode("Studio/Resources/dialog.js"),
                .embedInCode("Studio/Resources/editors.js"),
                .embedInCode("Studio/Resources/chooser.js"),
                .embedInCode("Studio/Resources/objects.js"),
                .embedInCode("Studio/Resources/edit.js"),
                .embedInCode("Studio/Resources/create.js"),
                .embedInCode("Studio/Resources/schema.js"),
                .embedInCode("Studio/Resources/transfer.js"),
                .embedInCode("Studio/Resources/live.js"),
                .embedInCode("Studio/Resources/app.js"),
            ]
        ),
        // A served realm from another machine: import, export, typed queries and changes over HTTP.
        .target(
            name: "KuraClient",
            dependencies: [
                "Kura",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The `kura` command line: one file per subcommand, over the library, the service and the client.
        .executableTarget(
            name: "KuraCommandLine",
            dependencies: [
                "Kura",
                "KuraServer",
                "KuraClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // The pieces a served realm's export arrives in.
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The benchmarks' probe: maps documents and drives the library without the command line.
        .executableTarget(
            name: "kura-probe",
            dependencies: ["Kura"],
            path: "Harnesses/kura-probe"
        ),
        // The SIGKILL crash harness: kills kura import, copy and migrate and judges the realms left.
        .executableTarget(
            name: "kura-crash",
            dependencies: ["Kura"],
            path: "Harnesses/kura-crash"
        ),
        // The README's Swift samples, compiled and run by ReadmeExampleTests.
        .executableTarget(
            name: "ReadmeExample",
            dependencies: ["Kura", "KuraClient"],
            path: "Examples/ReadmeExample"
        ),
        // A realm used from an actor, run by ActorExampleTests; the Concurrency article shows it.
        .executableTarget(
            name: "ActorExample",
            dependencies: ["Kura"],
            path: "Examples/ActorExample"
        ),
        // The DocC catalog's Swift samples (Sources/Kura/Kura.docc), compiled and run by DocsExampleTests.
        .executableTarget(
            name: "DocsExample",
            dependencies: ["Kura", "KuraClient"],
            path: "Examples/DocsExample"
        ),
        // What the test targets share: paths and temporary folders, the sample models, fixtures of
        // realms, the `kura serve` process and its HTTP client.
        .target(
            name: "KuraTestSupport",
            dependencies: ["Kura"],
            path: "Tests/KuraTestSupport"
        ),
        // The library, through its API, on real realm files.
        .testTarget(
            name: "KuraTests",
            dependencies: [
                "Kura", "KuraTestSupport",
                // Raw SQL on realm files, to break the invariants `kura check` looks for.
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // YAML read node by node: the reference `Schema.json` is compared with.
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // `kura serve`: its routes, shutdown, streaming, faults, hostile clients, load and Studio.
        .testTarget(
            name: "KuraServerTests",
            dependencies: [
                "Kura", "KuraServer", "KuraTestSupport",
                // The served realms' client, against real servers, with an HTTP client of the tests' own.
                "KuraClient",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // The `kura` binary whose `serve` the process tests start.
                "KuraCommandLine",
                // The router of `kura serve` driven in process, and what its requests are made of.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                // A logger for KuraService, whose router the tests drive.
                .product(name: "Logging", package: "swift-log"),
                // The `server:` section of a test's config.yaml, read as `kura serve` reads it.
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // The `kura` commands, the README's and docs' examples, the harnesses and the main job.
        .testTarget(
            name: "KuraCommandLineTests",
            dependencies: [
                "Kura", "KuraCommandLine", "KuraTestSupport",
                "kura-probe", "kura-crash", "ReadmeExample", "ActorExample", "DocsExample",
                // SHA-256 of the files a rerun leaves.
                "KuraServer",
                // Raw SQL on realm files, to break what the commands must notice.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Kura",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Kura", targets: ["Kura"]),
        .executable(name: "kura", targets: ["kura"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/jpsim/Yams", exact: "6.2.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
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
            ]
        ),
        // The SQLite set-up calls Swift cannot make (sqlite3_config is variadic).
        .target(
            name: "CKuraSQLite",
            linkerSettings: [.linkedLibrary("sqlite3")]
        ),
        .executableTarget(
            name: "kura",
            dependencies: [
                "Kura",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "kura-probe",
            dependencies: ["Kura"]
        ),
        // The SIGKILL crash harness: kills kura import, copy and migrate and judges the realms left.
        .executableTarget(
            name: "kura-crash",
            dependencies: ["Kura"]
        ),
        // The README's Swift samples, compiled and run by ReadmeExampleTests.
        .executableTarget(
            name: "ReadmeExample",
            dependencies: ["Kura"],
            path: "Examples/ReadmeExample"
        ),
        .testTarget(
            name: "KuraTests",
            dependencies: [
                "Kura", "kura", "kura-probe", "kura-crash", "ReadmeExample",
                // Raw SQL on realm files, to break the invariants `kura check` looks for.
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

import Foundation
import Synchronization
import Kura

/// Paths and realms shared by the tests.
package enum Fixtures {
    /// The package's root folder.
    package static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    package static var samplesSchemaPath: String { packageRoot.appendingPathComponent("Samples/schema.yaml").path }

    package static func samplesSchema() throws -> Schema {
        try Schema(contentsOfFile: samplesSchemaPath)
    }

    /// The folder that holds every temporary folder of this test run. It is removed when the
    /// process exits, so runs do not pile up realms under the system's temporary folder.
    private static let runFolder: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("kura-tests-\(UUID().uuidString)", isDirectory: true)
        atexit { try? FileManager.default.removeItem(at: Fixtures.runFolder) }
        return url
    }()

    /// A fresh empty folder for one test, inside this run's folder.
    package static func temporaryDirectory() throws -> URL {
        let url = runFolder.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A path for a new realm file in a fresh folder.
    package static func realmPath(_ name: String = "test.realm") throws -> String {
        try temporaryDirectory().appendingPathComponent(name).path
    }

    /// A built executable of this package (`kura`, `kura-probe`), found beside the test bundle.
    package static func executable(_ name: String) -> String {
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = url.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
            url = url.deletingLastPathComponent()
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)").path
    }

    /// What `RealmChecker` finds wrong in `realm`'s file: nothing, after any operation that works.
    package static func problems(_ realm: Realm) throws -> [String] {
        try RealmChecker(path: realm.configuration.path).check().messages
    }

    /// Runs a program and returns its exit status, standard output and standard error.
    @discardableResult
    package static func run(
        _ program: String, _ arguments: [String], currentDirectory: URL? = nil, environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, given in given }
        }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both pipes drain at once: a program that fills one while the other is read would wait forever.
        let errText = Mutex("")
        let errRead = DispatchSemaphore(value: 0)
        let errHandle = err.fileHandleForReading
        Thread.detachNewThread {
            let data = errHandle.readDataToEndOfFile()
            errText.withLock { $0 = String(decoding: data, as: UTF8.self) }
            errRead.signal()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        errRead.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), errText.withLock { $0 })
    }
}

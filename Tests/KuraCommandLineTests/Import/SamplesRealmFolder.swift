import Foundation
import Kura
import KuraTestSupport

/// A fresh folder holding an empty realm (of the samples' schema, `people.realm`, unless told
/// otherwise), where a test writes its inputs and runs `kura`: the set-up the command-line suites share.
struct SamplesRealmFolder {
    let folder: URL
    let realmPath: String
    let kura = Fixtures.executable("kura")

    init(schema: Schema? = nil, realmName: String = "people.realm") throws {
        folder = try Fixtures.temporaryDirectory()
        realmPath = folder.appendingPathComponent(realmName).path
        _ = try Realm(path: realmPath, schema: try schema ?? Fixtures.samplesSchema())
    }

    /// Writes `bytes` to the file `name` in the folder and returns its path.
    func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes `text` to the file `name` in the folder and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        try file(name, Array(text.utf8))
    }
}

/// A suite set up on a `SamplesRealmFolder`, whose parts it uses by their own names.
protocol SamplesRealmSuite {
    var samples: SamplesRealmFolder { get }
}

extension SamplesRealmSuite {
    var folder: URL { samples.folder }
    var realmPath: String { samples.realmPath }
    var kura: String { samples.kura }

    func file(_ name: String, _ bytes: [UInt8]) throws -> String { try samples.file(name, bytes) }
    func file(_ name: String, _ text: String) throws -> String { try samples.file(name, text) }
}

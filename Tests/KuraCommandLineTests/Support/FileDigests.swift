import Foundation
import KuraServer
import KuraTestSupport

extension Fixtures {
    /// Every file under `folder` (by its path inside it) with the SHA-256 of its bytes, in hex.
    static func fileDigests(in folder: URL) throws -> [String: String] {
        var digests: [String: String] = [:]
        guard let names = FileManager.default.enumerator(atPath: folder.path) else { return digests }
        for case let name as String in names {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            digests[name] = SHA256Digest.digest(try Data(contentsOf: url)).map { String(format: "%02x", $0) }.joined()
        }
        return digests
    }
}

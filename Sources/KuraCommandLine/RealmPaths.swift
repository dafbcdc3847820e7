import Foundation
import Kura

/// The checks of a realm path every command makes before it opens the realm, so that a missing
/// realm or folder reads the same in every command. A realm on a database server (a PostgreSQL
/// URL) has no file to look for: opening it tells whether it is there.
enum RealmPaths {
    /// Whether `path` names a realm file rather than a realm on a database server.
    static func isFile(_ path: String) -> Bool {
        Realm.Configuration(path: path).isFile
    }

    /// Throws "no realm at" (exit 66) for a missing realm, naming its folder when that is missing;
    /// `hint` follows the message.
    static func requireRealm(_ path: String, hint: String = "") throws {
        guard isFile(path), !FileManager.default.fileExists(atPath: path) else { return }
        if let folder = missingFolder(of: path) {
            throw CommandFailure(.inputMissing, "no realm at '\(path)': no folder '\(folder)'")
        }
        throw CommandFailure(.inputMissing, "no realm at '\(path)'" + hint)
    }

    /// Throws (exit 66) when the folder a new realm would go into does not exist.
    static func requireFolder(forNew path: String) throws {
        if isFile(path), let folder = missingFolder(of: path) {
            throw CommandFailure(.inputMissing, "cannot create realm '\(path)': no folder '\(folder)'")
        }
    }

    /// The folder of `path` when it does not exist or is not a folder; `nil` when it is one.
    static func missingFolder(of path: String) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        guard !folder.isEmpty, folder != path else { return nil }
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue ? nil : folder
    }
}

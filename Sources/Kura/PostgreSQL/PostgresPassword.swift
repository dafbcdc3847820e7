import Foundation

/// Finds the password for a PostgreSQL realm as libpq does: `PGPASSWORD`, else the first line of
/// the password file (`PGPASSFILE`, else `~/.pgpass`) that matches the server, database and user.
///
/// A line is `host:port:database:user:password`; `*` matches anything, `\:` and `\\` stand for
/// `:` and `\`, and lines starting with `#` are comments. A password file that others may read is
/// ignored, as libpq ignores it.
enum PostgresPassword {
    /// The password for `location`, or `nil` when none is set.
    static func find(for location: PostgresLocation, environment: [String: String]) -> String? {
        if let password = environment["PGPASSWORD"] { return password }
        guard let path = passwordFile(environment) else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let mode = attributes[.posixPermissions] as? NSNumber, mode.intValue & 0o077 == 0,
            let text = try? String(contentsOfFile: path, encoding: .utf8)
        else { return nil }
        let wanted = [location.passwordFileHost, String(location.port), location.database, location.user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ $0.0 == "*" || $0.0 == $0.1 }) { return fields[4] }
        }
        return nil
    }

    /// The password file's path: `PGPASSFILE`, else `.pgpass` in the home folder.
    static func passwordFile(_ environment: [String: String]) -> String? {
        if let file = environment["PGPASSFILE"] { return file }
        guard let home = environment["HOME"] else { return nil }
        return (home as NSString).appendingPathComponent(".pgpass")
    }

    /// The fields of one line, split at unescaped colons, escapes undone.
    private static func split(_ line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var escaped = false
        for character in line {
            if escaped {
                field.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 4 {
                fields.append(field)
                field = ""
            } else {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}

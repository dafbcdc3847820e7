import GRDB
import GRDBSQLite

/// `kura_fold`, `kura_fold_d` and `kura_fold_cd` (`[c]`, `[d]`, `[cd]`) as SQLite functions that
/// read the text's bytes where SQLite keeps them: ASCII text, which has no diacritics and whose
/// case is one bit, is folded without making a Swift string; other text goes through
/// `QueryFunctions.fold`.
enum FoldFunctions {
    /// Adds the three functions to a connection.
    static func install(in db: Database) {
        let functions: [(String, StringOptions)] = [
            (QueryFunctions.fold, StringOptions(caseInsensitive: true)),
            (QueryFunctions.foldDiacritics, StringOptions(diacriticInsensitive: true)),
            (QueryFunctions.foldBoth, StringOptions(caseInsensitive: true, diacriticInsensitive: true)),
        ]
        for (name, options) in functions {
            // The options travel as the function's user data: 1 for case, 2 for diacritics.
            let flags = (options.caseInsensitive ? 1 : 0) | (options.diacriticInsensitive ? 2 : 0)
            sqlite3_create_function_v2(
                db.sqliteConnection, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, UnsafeMutableRawPointer(bitPattern: flags),
                fold, nil, nil, nil)
        }
    }

    private static let fold: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, arguments in
        guard count == 1, let value = arguments?[0] else { return sqlite3_result_null(context) }
        guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else {
            return sqlite3_result_value(context, value)
        }
        let flags = Int(bitPattern: sqlite3_user_data(context))
        let options = StringOptions(caseInsensitive: flags & 1 != 0, diacriticInsensitive: flags & 2 != 0)
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
        if !bytes.contains(where: { $0 >= 0x80 }) {
            guard options.caseInsensitive, bytes.contains(where: { $0 >= 65 && $0 <= 90 }) else {
                return sqlite3_result_value(context, value)
            }
            let lowered = bytes.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
            return lowered.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    sqlite3_result_text64(context, characters.baseAddress, UInt64(characters.count), transient, UInt8(SQLITE_UTF8))
                }
            }
        }
        let folded = Array(options.fold(String(decoding: bytes, as: UTF8.self)).utf8)
        folded.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                sqlite3_result_text64(context, characters.baseAddress, UInt64(characters.count), transient, UInt8(SQLITE_UTF8))
            }
        }
    }

    /// SQLite's SQLITE_TRANSIENT: it copies the result before the buffer goes away.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}

/// An index as the checks compare it: its table, whether it is unique, its columns and the
/// condition of a partial index. Read from the statement `PostgresSchemaInstaller` makes it with,
/// or from PostgreSQL's catalog, which keeps no statement text of its own.
struct PostgresIndexShape: Equatable {
    let name: String
    let table: String
    let isUnique: Bool
    /// The indexed columns, unquoted.
    let columns: [String]
    /// The condition of a partial index, without parentheses, quotes or white space.
    let condition: String?

    init(name: String, table: String, isUnique: Bool, columns: [String], condition: String?) {
        self.name = name
        self.table = table
        self.isUnique = isUnique
        self.columns = columns
        self.condition = condition.map(Self.bare)
    }

    /// The index `CREATE [UNIQUE] INDEX "name" ON "table" ("column", …) [WHERE …]` makes, as Kura
    /// writes the statement; `nil` for any other text.
    init?(statement: String) {
        let isUnique = statement.hasPrefix("CREATE UNIQUE INDEX ")
        var rest = Substring(statement)
        guard rest.drop(while: { $0 != "\"" }).first != nil else { return nil }
        rest = rest.drop(while: { $0 != "\"" })
        guard let name = Self.identifier(&rest), rest.hasPrefix(" ON ") else { return nil }
        rest = rest.dropFirst(4)
        guard let table = Self.identifier(&rest), rest.hasPrefix(" (") else { return nil }
        rest = rest.dropFirst(2)
        var columns: [String] = []
        while let column = Self.identifier(&rest) {
            columns.append(column)
            if rest.hasPrefix(", ") { rest = rest.dropFirst(2) } else { break }
        }
        guard rest.hasPrefix(")") else { return nil }
        rest = rest.dropFirst()
        let condition = rest.hasPrefix(" WHERE ") ? String(rest.dropFirst(7)) : nil
        self.init(name: name, table: table, isUnique: isUnique, columns: columns, condition: condition)
    }

    /// Reads the quoted identifier that `text` starts with (quotes inside doubled) and moves past it.
    private static func identifier(_ text: inout Substring) -> String? {
        guard text.first == "\"" else { return nil }
        var name = ""
        var index = text.index(after: text.startIndex)
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character != "\"" {
                name.append(character)
            } else if index < text.endIndex, text[index] == "\"" {
                name.append("\"")
                index = text.index(after: index)
            } else {
                text = text[index...]
                return name
            }
        }
        return nil
    }

    /// A condition as both Kura and PostgreSQL's catalog can write it, compared without what only
    /// the writing adds: parentheses, quotes and white space.
    private static func bare(_ condition: String) -> String {
        String(condition.filter { !"()\"".contains($0) && !$0.isWhitespace })
    }
}

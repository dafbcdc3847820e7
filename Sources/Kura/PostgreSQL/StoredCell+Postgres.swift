import Foundation
import NIOCore
import PostgresNIO

extension StoredCell {
    /// The driver's arguments for `cells`, each bound with the type of its stored form: `bigint`,
    /// `double precision`, `text` or `bytea`; a null takes the type the statement gives its place.
    static func bindings(_ cells: [StoredCell]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: cells.count)
        for cell in cells {
            switch cell {
            case .null: bindings.appendNull()
            case .integer(let number): bindings.append(number)
            case .real(let number): bindings.append(number)
            case .text(let text): bindings.append(text)
            case .blob(let data): bindings.append(ByteBuffer(bytes: data))
            }
        }
        return bindings
    }

    /// The cells of one row the server sent.
    static func cells(of row: PostgresRow) throws -> [StoredCell] {
        var cells: [StoredCell] = []
        cells.reserveCapacity(row.count)
        for cell in row { cells.append(try StoredCell(postgres: cell)) }
        return cells
    }

    /// One cell the server sent, by its column's type: integers of any width, `double precision`
    /// and `real`, texts of any kind, `bytea` and booleans (as 0 and 1); any other type as its text.
    init(postgres cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int8, .int4, .int2, .oid: self = .integer(try cell.decode(Int64.self))
        case .float8, .float4: self = .real(try cell.decode(Double.self))
        case .bool: self = .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea:
            self = .blob(Data(try cell.decode(ByteBuffer.self).readableBytesView))
        default: self = .text(try cell.decode(String.self))
        }
    }
}

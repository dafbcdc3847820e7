import Foundation
import GRDB

/// A stored cell is bound and read as the SQLite value of its storage class.
extension StoredCell: DatabaseValueConvertible {
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let number): self = .integer(number)
        case .double(let number): self = .real(number)
        case .string(let text): self = .text(text)
        case .blob(let bytes): self = .blob(bytes)
        }
    }

    package var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        case .blob(let bytes): bytes.databaseValue
        }
    }

    package static func fromDatabaseValue(_ value: DatabaseValue) -> StoredCell? {
        StoredCell(value)
    }
}

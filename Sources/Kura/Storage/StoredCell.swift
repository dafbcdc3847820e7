import Foundation

/// One value in its stored form, as a column or collection element keeps it: what the writer
/// stages, links with, looks primary keys up by and compares with what is stored, without naming
/// an engine's own value type.
///
/// Equal and hashed exactly: a text byte by byte (a string in another normalization form is
/// another value), and never an integer equal to a real.
package enum StoredCell: Sendable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Whether the cell holds null.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The cell as messages show a stored value: `NULL`, a number, a quoted text, `Data(n bytes)`.
    package var sqlDescription: String {
        switch self {
        case .null: "NULL"
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .text(let text): String(reflecting: text)
        case .blob(let bytes): "Data(\(bytes.description))"
        }
    }

    /// The id of the object a link cell holds, if it holds one.
    package var objectId: Int64? {
        if case .integer(let id) = self { return id }
        return nil
    }

    /// Whether the two cells hold the same stored value as an update sees it: as `==`, except that
    /// -0.0 and 0.0 differ, so that an update writes the zero it is given rather than keep the other.
    package func isIdentical(to other: StoredCell) -> Bool {
        if case .real(let left) = self, case .real(let right) = other { return left.bitPattern == right.bitPattern }
        return self == other
    }

    /// The cell with a decimal's text replaced by its normalized text, so that stored decimals
    /// equal in value are equal (`1.0` and `1.00` both read `1`); any other cell unchanged.
    package var decimalNormalized: StoredCell {
        guard case .text(let text) = self, let number = Decimal128(text) else { return self }
        return .text(number.normalized.description)
    }
}

extension StoredCell: Hashable {
    package static func == (lhs: StoredCell, rhs: StoredCell) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.integer(let left), .integer(let right)): left == right
        case (.real(let left), .real(let right)): left == right
        case (.text(let left), .text(let right)): ExactText.equal(left, right)
        case (.blob(let left), .blob(let right)): left == right
        default: false
        }
    }

    package func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .integer(let number):
            hasher.combine(1)
            hasher.combine(number)
        case .real(let number):
            hasher.combine(2)
            hasher.combine(number)
        case .text(let text):
            hasher.combine(3)
            ExactText.hash(text, into: &hasher)
        case .blob(let bytes):
            hasher.combine(4)
            hasher.combine(bytes)
        }
    }
}

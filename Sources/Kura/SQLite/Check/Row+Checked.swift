import GRDB

extension Row {
    /// The integer in column `index`; `nil` for null or a value of any other storage class. Checks
    /// read damaged and hostile files, where GRDB's converting subscripts stop the process on a
    /// value they cannot convert.
    func checkedInteger(_ index: Int) -> Int64? {
        guard case .int64(let number) = (self[index] as DatabaseValue).storage else { return nil }
        return number
    }

    /// A count or other integer the query computes, as an `Int` (0 if it is not an integer).
    func checkedCount(_ index: Int) -> Int {
        checkedInteger(index).map { Int(truncatingIfNeeded: $0) } ?? 0
    }

    /// The text in column `index`; `nil` for null or a value of any other storage class.
    func checkedText(_ index: Int) -> String? {
        guard case .string(let text) = (self[index] as DatabaseValue).storage else { return nil }
        return text
    }
}

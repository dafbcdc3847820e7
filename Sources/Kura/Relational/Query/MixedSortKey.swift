import Foundation

/// The order of mixed values for sorting: `kura_mixed_key(tag, value)` makes a text of each stored
/// value and `COLLATE kura_mixed` orders those texts as `ValueOrder` orders the values, with kinds
/// in Realm's order when values of two kinds meet: null, bool, numbers (of every kind together, by
/// value), string, data, date, object id, UUID, link, list, map.
enum MixedSortKey {
    static let function = "kura_mixed_key"
    static let collation = "kura_mixed"

    /// Two digits of rank, then (for numbers) a letter for the kind, then the value as text whose
    /// bytes sort as the values do (numbers are compared by `compare` instead).
    static func key(tag: Int64, value: StoredCell) -> String {
        if tag >= MixedTag.linkBase, case .integer(let id) = value {
            return "08" + padded(tag - MixedTag.linkBase) + padded(id)
        }
        switch (tag, value) {
        case (MixedTag.bool, .integer(let flag)): return flag == 0 ? "010" : "011"
        case (MixedTag.int, .integer(let number)): return "02i\(number)"
        case (MixedTag.float, .real(let number)): return "02f\(number)"
        case (MixedTag.float, .integer(let number)): return "02f\(Double(number))"
        case (MixedTag.double, .real(let number)): return "02d\(number)"
        case (MixedTag.double, .integer(let number)): return "02d\(Double(number))"
        case (MixedTag.decimal, .text(let text)): return "02m" + text
        case (MixedTag.string, .text(let text)): return "03" + text
        case (MixedTag.data, .blob(let bytes)): return "04" + ValueText.hex(bytes)
        case (MixedTag.date, .integer(let millis)): return "05" + padded(millis)
        case (MixedTag.objectId, .blob(let bytes)): return "06" + ValueText.hex(bytes)
        case (MixedTag.uuid, .blob(let bytes)): return "07" + ValueText.hex(bytes)
        case (MixedTag.list, _): return "09"
        case (MixedTag.map, _): return "10"
        default: return "00"
        }
    }

    /// Orders two keys: numbers by value, everything else by rank and then by bytes.
    static func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        if lhs.hasPrefix("02"), rhs.hasPrefix("02"), let left = number(lhs), let right = number(rhs),
            let order = ValueOrder.compare(left, right)
        {
            return order
        }
        for (left, right) in zip(lhs.utf8, rhs.utf8) where left != right {
            return left < right ? .orderedAscending : .orderedDescending
        }
        let (left, right) = (lhs.utf8.count, rhs.utf8.count)
        return left == right ? .orderedSame : (left < right ? .orderedAscending : .orderedDescending)
    }

    private static func number(_ key: String) -> Value? {
        let text = String(key.dropFirst(3))
        switch key.dropFirst(2).first {
        case "i": return Int64(text).map(Value.int)
        case "f": return Double(text).map { .float(Float($0)) }
        case "d": return Double(text).map(Value.double)
        case "m": return Decimal128(text).map(Value.decimal)
        default: return nil
        }
    }

    /// A signed integer as 20 digits whose text order is the numbers' order.
    private static func padded(_ number: Int64) -> String {
        let shifted = String(UInt64(bitPattern: number) ^ (1 << 63))
        return String(repeating: "0", count: 20 - shifted.count) + shifted
    }
}

/// Dates of the query suite as whole milliseconds since 1970-01-01T00:00:00Z, converted to and
/// from the proleptic Gregorian calendar by arithmetic alone, so the expected answers do not lean
/// on a date library.
package enum QueryDates {
    private static let millisecondsPerDay: Int64 = 86_400_000

    /// The instant of a UTC calendar date and time.
    package static func milliseconds(
        _ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0, _ millisecond: Int = 0
    ) -> Int64 {
        let clock = ((Int64(hour) * 60 + Int64(minute)) * 60 + Int64(second)) * 1000 + Int64(millisecond)
        return daysSinceEpoch(year, month, day) * millisecondsPerDay + clock
    }

    /// The date as documents write it: `2024-01-01T10:00:00.000Z`.
    package static func text(_ milliseconds: Int64) -> String {
        let days = floorDivide(milliseconds, millisecondsPerDay)
        var rest = milliseconds - days * millisecondsPerDay
        let (year, month, day) = civilDate(days)
        let hour = rest / 3_600_000
        rest %= 3_600_000
        let minute = rest / 60_000
        rest %= 60_000
        let second = rest / 1000
        let millisecond = rest % 1000
        func padded(_ value: Int64, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(Int64(year), 4))-\(padded(Int64(month), 2))-\(padded(Int64(day), 2))T"
            + "\(padded(hour, 2)):\(padded(minute, 2)):\(padded(second, 2)).\(padded(millisecond, 3))Z"
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// Days from 1970-01-01 to a date, counted in 400-year eras of 146,097 days each.
    private static func daysSinceEpoch(_ year: Int, _ month: Int, _ day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The calendar date `days` after 1970-01-01 (the inverse of `daysSinceEpoch`).
    private static func civilDate(_ days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

import Foundation

/// ISO-8601 formatting and parsing of dates at millisecond precision, without Foundation formatters.
public enum DateFormatting {
    /// The milliseconds a date may lie from 1970-01-01T00:00:00Z: JavaScript's range, 100,000,000
    /// days either way (years -271821 to 275760). Every millisecond in it survives the round trip
    /// through a `Date`'s seconds, which beyond about 2^43 seconds would drop some.
    public static let millisecondRange: ClosedRange<Int64> = -8_640_000_000_000_000...8_640_000_000_000_000

    /// How the range is named in messages.
    static let rangeText = "years -271821 to 275760"

    /// Why a text or number is not a date Kura can hold.
    public enum Problem: Error, Sendable, Equatable {
        /// Not a date at all.
        case invalid
        /// A date with digits below a millisecond, which a date (stored in milliseconds) cannot hold.
        case subMillisecond
        /// A date outside `millisecondRange`.
        case outOfRange
    }

    /// Milliseconds since 1970-01-01T00:00:00Z, rounded to the nearest millisecond.
    public static func milliseconds(_ date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite, value > -9.2e18, value < 9.2e18 else { return value < 0 ? Int64.min : Int64.max }
        return Int64(value)
    }

    /// The milliseconds a realm stores for `date`, rounded to the nearest one; `nil` outside
    /// `millisecondRange`, where a stored date would not read back as the one given.
    static func storedMilliseconds(_ date: Date) -> Int64? {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        guard millis >= Double(millisecondRange.lowerBound), millis <= Double(millisecondRange.upperBound) else { return nil }
        return Int64(millis)
    }

    /// The date `milliseconds` after 1970-01-01T00:00:00Z.
    public static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Formats as `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    public static func iso8601(_ date: Date) -> String {
        iso8601(milliseconds: milliseconds(date))
    }

    /// Formats milliseconds since the epoch as `YYYY-MM-DDTHH:MM:SS.sssZ` in UTC.
    public static func iso8601(milliseconds: Int64) -> String {
        let (days, msOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civil(fromDays: days)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let millis = msOfDay % 1000
        var yearText = String(abs(year))
        if yearText.count < 4 { yearText = String(repeating: "0", count: 4 - yearText.count) + yearText }
        if year < 0 { yearText = "-" + yearText } else if year > 9999 { yearText = "+" + yearText }
        return yearText + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(hour, 2) + ":" + pad(minute, 2)
            + ":" + pad(second, 2) + "." + pad(millis, 3) + "Z"
    }

    /// Parses ISO-8601 date-times such as `2024-05-01T12:30:00Z`, `2024-05-01T12:30:00.5+02:00`
    /// or a plain date `2024-05-01` (midnight UTC); `nil` if the text is not one. Digits below a
    /// millisecond are dropped: for query literals and schema defaults; documents use `checkedISO8601`.
    public static func parseISO8601(_ text: String) -> Int64? {
        var scanner = DigitScanner(Array(text.utf8))
        return parse(&scanner)
    }

    /// The milliseconds of an ISO-8601 date-time, or why it is not a date Kura holds exactly: digits
    /// below a millisecond (other than zeros) and dates outside `millisecondRange` are refused.
    public static func checkedISO8601(_ text: String) -> Result<Int64, Problem> {
        var scanner = DigitScanner(Array(text.utf8))
        guard let millis = parse(&scanner) else { return .failure(.invalid) }
        if scanner.droppedDigits { return .failure(.subMillisecond) }
        return millisecondRange.contains(millis) ? .success(millis) : .failure(.outOfRange)
    }

    /// The milliseconds of a number of seconds (`scale` 1000) or milliseconds (`scale` 1) since 1970,
    /// exactly, or why it is not a date Kura holds.
    static func checkedNumber(_ number: NumberLiteral, scale: Int64) -> Result<Int64, Problem> {
        if let integer = number.int64Value {
            let (millis, overflow) = integer.multipliedReportingOverflow(by: scale)
            return !overflow && millisecondRange.contains(millis) ? .success(millis) : .failure(.outOfRange)
        }
        guard number.doubleValue.isFinite else { return .failure(.outOfRange) }
        // Decimal arithmetic on the text where it is plain decimal notation (Foundation reads only a
        // prefix of anything else): a double would take `1.0000000000000002` ms for a whole one.
        let isPlain = number.text.utf8.allSatisfy { (48...57).contains($0) || $0 == 46 || $0 == 45 || $0 == 43 || $0 == 101 || $0 == 69 }
        let exact = (isPlain ? Decimal(string: number.text, locale: Locale(identifier: "en_US_POSIX")) : nil) ?? Decimal(number.doubleValue)
        guard exact.isFinite else { return .failure(.outOfRange) }
        var scaled = exact * Decimal(scale)
        var whole = Decimal()
        NSDecimalRound(&whole, &scaled, 0, .plain)
        guard whole == scaled else { return .failure(.subMillisecond) }
        guard whole >= Decimal(millisecondRange.lowerBound), whole <= Decimal(millisecondRange.upperBound) else {
            return .failure(.outOfRange)
        }
        return .success(NSDecimalNumber(decimal: whole).int64Value)
    }

    private static func parse(_ scanner: inout DigitScanner) -> Int64? {
        var negativeYear = false
        if scanner.take(UInt8(ascii: "-")) { negativeYear = true } else { _ = scanner.take(UInt8(ascii: "+")) }
        guard let yearDigits = scanner.digits(min: 4, max: 6), scanner.take(UInt8(ascii: "-")),
            let month = scanner.digits(min: 2, max: 2), scanner.take(UInt8(ascii: "-")),
            let day = scanner.digits(min: 2, max: 2)
        else { return nil }
        let year = negativeYear ? -yearDigits : yearDigits
        guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day) else { return nil }
        var msOfDay: Int64 = 0
        var offsetMinutes: Int64 = 0
        if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")) {
            guard let hour = scanner.digits(min: 2, max: 2), scanner.take(UInt8(ascii: ":")),
                let minute = scanner.digits(min: 2, max: 2)
            else { return nil }
            var second: Int64 = 0
            var millis: Int64 = 0
            if scanner.take(UInt8(ascii: ":")) {
                guard let parsed = scanner.digits(min: 2, max: 2) else { return nil }
                second = parsed
                if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                    guard let fraction = scanner.fraction() else { return nil }
                    millis = fraction
                }
            }
            guard hour < 24, minute < 60, second < 60 else { return nil }
            msOfDay = ((hour * 60 + minute) * 60 + second) * 1000 + millis
            if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) {
                offsetMinutes = 0
            } else if let sign = scanner.peekSign() {
                guard let offsetHour = scanner.digits(min: 2, max: 2) else { return nil }
                _ = scanner.take(UInt8(ascii: ":"))
                guard let offsetMinute = scanner.digits(min: 2, max: 2), offsetHour < 24, offsetMinute < 60 else {
                    return nil
                }
                offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
            } else {
                return nil
            }
        }
        guard scanner.atEnd else { return nil }
        let days = days(fromCivil: year, month: month, day: day)
        let (total, overflow) = days.multipliedReportingOverflow(by: 86_400_000)
        guard !overflow else { return nil }
        return total + msOfDay - offsetMinutes * 60_000
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    private static func daysInMonth(year: Int64, month: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days, proleptic Gregorian calendar.
    private static func days(fromCivil year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A cursor over ASCII bytes for the date parser.
private struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func peekSign() -> Int64? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }

    mutating func digits(min: Int, max: Int) -> Int64? {
        var value: Int64 = 0
        var count = 0
        while index < bytes.count, count < max, bytes[index] >= 48, bytes[index] <= 57 {
            value = value * 10 + Int64(bytes[index] - 48)
            index += 1
            count += 1
        }
        return count >= min ? value : nil
    }

    /// Set when `fraction()` truncated a digit other than 0.
    var droppedDigits = false

    /// Reads fraction digits and returns them as milliseconds (extra digits are truncated).
    mutating func fraction() -> Int64? {
        var millis: Int64 = 0
        var count = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if count < 3 { millis = millis * 10 + Int64(bytes[index] - 48) } else if bytes[index] != 48 { droppedDigits = true }
            index += 1
            count += 1
        }
        guard count > 0 else { return nil }
        var scaled = count
        while scaled < 3 { millis *= 10; scaled += 1 }
        return millis
    }
}

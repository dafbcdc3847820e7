/// A count and its noun as messages print them, the noun agreeing in number: `1 document`,
/// `2 documents`, `0 types`, `1 entry`.
package struct Counted: CustomStringConvertible, Sendable, Equatable {
    /// How many.
    package let count: Int
    /// The noun for exactly one.
    package let singular: String
    /// The noun for any other count.
    package let plural: String

    /// `noun` is the singular; the plural adds an "s" unless given (`entry`, `entries`).
    package init(_ count: Int, _ noun: String, plural: String? = nil) {
        self.count = count
        singular = noun
        self.plural = plural ?? noun + "s"
    }

    /// The noun alone, in the count's number.
    package var noun: String { count == 1 ? singular : plural }

    /// `1 document`, `2 documents`.
    package var description: String { "\(count) \(noun)" }
}

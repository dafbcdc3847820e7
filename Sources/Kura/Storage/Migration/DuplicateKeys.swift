/// Values that more than one object holds where a primary key must be unique: the most held first
/// (then by value), at most `listedLimit` of them, and how many such values there are in all.
package struct DuplicateKeys {
    /// How many duplicated values a finding lists; the message says how many more there are.
    package static let listedLimit = 20

    /// The values listed, each with the number of objects holding it.
    package let listed: [KuraError.DuplicateKey]
    /// The number of duplicated values, listed or not.
    package let total: Int

    package init(listed: [KuraError.DuplicateKey], total: Int) {
        self.listed = listed
        self.total = total
    }
}

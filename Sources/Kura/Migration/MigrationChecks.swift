/// The problems a migration's data raises, worded once whichever engine found them: before the
/// migration (on the old objects) and after a migration block (on the new ones).
enum MigrationChecks {
    /// The error of values held by more than one object where `path` is to be the primary key.
    static func duplicateKeys(_ found: DuplicateKeys, path: String) -> KuraError {
        let duplicates = found.listed
        let total = found.total
        var listing = duplicates.map { "\($0.value) (\(Counted($0.count, "object")))" }.joined(separator: ", ")
        if total > duplicates.count { listing += ", and \(total - duplicates.count) more duplicated \(Counted(total - duplicates.count, "value").noun)" }
        return KuraError.migration(
            .duplicateKeys,
            "\(path): cannot be the primary key: \(Counted(total, "value")) \(total == 1 ? "is" : "are") held by more than one object: \(listing)",
            duplicates: duplicates)
    }

    /// Fails when objects of `type` hold no value for a required property, after a migration block
    /// that was to give them values.
    static func requireValues(_ property: Property, of type: String, in survey: any MigrationSurvey) throws {
        let missing = try survey.nulls(of: property, in: type)
        guard missing > 0 else { return }
        throw KuraError.migration(
            .missingValues,
            "\(type).\(property.name): \(Counted(missing, "object")) \(missing == 1 ? "has" : "have") no value for the required \(property.type) property after the migration")
    }
}

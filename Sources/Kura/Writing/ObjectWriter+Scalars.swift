/// Scalars as the writer checks and stores them: strictly of their property's type, null only
/// where the property is optional.
extension ObjectWriter {
    /// The column value of a scalar, with strict type checking.
    func encodeScalar(_ value: Value, _ property: StoredProperty, path: @autoclosure () -> String) throws(KuraError) -> StoredCell {
        try Self.encodeScalar(value, as: property.scalarType, isNullable: property.isNullable, declared: property.type, path: path())
    }

    /// Stages the column value of a scalar, with strict type checking (as `encodeScalar`).
    func stageScalar(_ value: Value, _ property: StoredProperty, path: @autoclosure () -> String) throws(KuraError) {
        // The declared type only for a message: copying it for every value retained its box.
        if value.isNull && !property.isNullable { throw Self.nullNotAllowed(property.type, path: path()) }
        guard transaction.stage.append(value, as: property.scalarType) else {
            throw Self.mismatch(value, property.scalarType, path: path())
        }
    }

    /// Stages `value` as a column of `scalarType` (the `declared` type without its optional marker).
    static func stageScalar(
        _ value: Value, as scalarType: PropertyType, isNullable: Bool, declared: PropertyType, into stage: RowStage,
        path: @autoclosure () -> String
    ) throws(KuraError) {
        if value.isNull && !isNullable { throw nullNotAllowed(declared, path: path()) }
        guard stage.append(value, as: scalarType) else { throw mismatch(value, scalarType, path: path()) }
    }

    fileprivate static func nullNotAllowed(_ declared: PropertyType, path: String) -> KuraError {
        KuraError.store(.missingValue, "\(path): null is not allowed for required \(declared) property")
    }

    fileprivate static func mismatch(_ value: Value, _ scalarType: PropertyType, path: String) -> KuraError {
        if scalarType == .date, case .date = value {
            return KuraError.store(.typeMismatch, "\(path): expected a date within \(DateFormatting.rangeText), found date \(value)")
        }
        return KuraError.store(.typeMismatch, "\(path): expected \(scalarType), found \(value.kindName) \(value)")
    }

    static func encodeScalar(_ value: Value, as type: PropertyType, path: @autoclosure () -> String) throws(KuraError) -> StoredCell {
        try encodeScalar(value, as: type.nonOptional, isNullable: type.isNullable, declared: type, path: path())
    }

    /// The column value of `value` as `scalarType` (the `declared` type without its optional marker).
    fileprivate static func encodeScalar(
        _ value: Value, as scalarType: PropertyType, isNullable: Bool, declared: PropertyType, path: @autoclosure () -> String
    ) throws(KuraError) -> StoredCell {
        if value.isNull && !isNullable { throw nullNotAllowed(declared, path: path()) }
        guard let stored = ScalarCodec.cell(value, as: scalarType) else { throw mismatch(value, scalarType, path: path()) }
        return stored
    }
}

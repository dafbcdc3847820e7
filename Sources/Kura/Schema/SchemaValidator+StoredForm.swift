/// The check that a schema reads back from the form a realm stores it in exactly as it was given:
/// a schema that stored one thing and read back another (or nothing) would leave its realm unreadable.
extension SchemaValidator {
    func validateStoredForm() throws(KuraError) {
        let (text, lines) = SchemaWriter.storedForm(of: schema)
        let stored: Schema
        do {
            var parser = SchemaParser(file: "<stored schema>", purpose: .storedForm)
            stored = try parser.parse(text)
        } catch {
            let line = (error.position?.line).map { $0 - 1 } ?? -1
            let owner: (type: String?, property: String?) = lines.indices.contains(line) ? lines[line] : (nil, nil)
            throw mismatch(owner.type, owner.property, "its stored form cannot be read back (\(error.message))")
        }
        guard stored.version == schema.version, stored.types.count == schema.types.count else {
            throw mismatch(nil, nil, "its stored form reads back a different list of types")
        }
        for (given, read) in zip(schema.types, stored.types) {
            guard same(given.name, read.name), given.isEmbedded == read.isEmbedded, given.isAsymmetric == read.isAsymmetric,
                same(given.primaryKey, read.primaryKey), given.properties.count == read.properties.count
            else {
                throw mismatch(given.name, nil, "its stored form reads back as type '\(read.name)' of another shape")
            }
            for (property, readProperty) in zip(given.properties, read.properties) where !same(property, readProperty) {
                throw mismatch(
                    given.name, property.name,
                    "its stored form reads back as '\(readProperty.name): \(SchemaWriter.entry(for: readProperty))'")
            }
        }
    }

    /// Equal to the byte, as the realm's SQL names and stored text are (Swift's `==` is looser).
    private func same(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }

    private func same(_ left: Property, _ right: Property) -> Bool {
        same(left.name, right.name) && same(left.type.description, right.type.description)
            && left.isIndexed == right.isIndexed && left.isAutoIncrement == right.isAutoIncrement
            && same(left.renamedFrom, right.renamedFrom)
            && same(left.defaultValue.map(SchemaWriter.literal), right.defaultValue.map(SchemaWriter.literal))
    }

    private func mismatch(_ type: String?, _ property: String?, _ problem: String) -> KuraError {
        let at = type.flatMap { type in property.flatMap { locations.property(type, $0) } ?? locations.type(type) }
        let subject = [type, property].compactMap { $0 }.joined(separator: ".")
        return KuraError.schema(.invalidStructure, "\(subject.isEmpty ? "the schema" : subject) cannot be stored: \(problem)", at: at)
    }
}

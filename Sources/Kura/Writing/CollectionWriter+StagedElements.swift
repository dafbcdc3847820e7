extension CollectionWriter {
    /// The rows of one collection value, staged element by element (owner, then position or key,
    /// then value, then tag): mixed elements stored, links resolved, repeated set elements left out.
    struct StagedElements {
        let stage: RowStage
        let ownerRef: ObjectRef
        let owner: Int64
        let property: StoredProperty
        /// Whether rows are inserted whenever a batch is staged, rather than all at the end.
        let inBatches: Bool
        let isList: Bool
        let isMap: Bool
        let isSet: Bool
        let isMixed: Bool
        let elementType: PropertyType
        /// The element type without its optional marker, and whether elements may be null.
        let elementScalarType: PropertyType
        let isNullable: Bool
        /// The linked type, for links.
        let target: StoredType?
        /// Where the first row starts.
        let start: RowStage.Mark
        /// How many cells a row has.
        let width: Int
        /// Where a row's value is among its cells.
        private let valueOffset: Int
        /// How many rows are staged.
        private(set) var count = 0
        /// Whether an embedded element held at its index or key was updated in place and changed.
        private(set) var heldChanged = false
        /// How many rows were staged in all, those inserted already included: a list's next position.
        private var total = 0
        /// Elements seen, by exact bytes as the rows before compare them (`stage.cellsEqual`).
        private var seen = Set<StoredCell>()
        /// The elements of a set of mixed values or decimals, which are equal by value, not by stored form.
        private var members: SetMembers?

        init(
            stage: RowStage, owner: ObjectRef, _ property: StoredProperty, kind: StoredProperty.CollectionKind, isMixed: Bool,
            elementType: PropertyType, target: StoredType?, inBatches: Bool
        ) {
            self.stage = stage
            ownerRef = owner
            self.owner = owner.id
            self.property = property
            self.inBatches = inBatches
            isList = kind == .list
            isMap = kind == .map
            isSet = kind == .set
            self.isMixed = isMixed
            self.elementType = elementType
            elementScalarType = elementType.nonOptional
            isNullable = elementType.isNullable
            self.target = target
            start = stage.mark
            valueOffset = isList || isMap ? 2 : 1
            width = valueOffset + (isMixed ? 2 : 1)
            if isSet && (isMixed || elementScalarType == .decimal) { members = SetMembers() }
        }

        mutating func add(
            _ element: MappedValue, key: String?, held: ObjectRef?, using writer: CollectionWriter, policy: UpdatePolicy,
            path: @autoclosure () -> String, depth: Int
        ) throws {
            // Repeated elements are left out, the first one kept as given (Realm keeps `1.0` of `[1.0, 1.00]`).
            if members?.insert(element.value) == false { return }
            // Mixed values and links are resolved before the row is staged: either may write rows of its own.
            var resolved: (tag: Int64?, value: StoredCell)?
            if let target, let held, let changed = try writer.writer.updateHeld(
                held, target, with: element, policy: policy, path: path(), depth: depth)
            {
                resolved = (nil, .integer(held.id))
                // An embedded object is part of its parent: its change is the parent's.
                heldChanged = heldChanged || (changed && target.isEmbedded)
            } else if let target, let held, try writer.writer.holdForReference(element, held: held, target: target, path: path()) {
                resolved = (nil, .integer(held.id))
            } else if isMixed || target != nil {
                resolved = try writer.encodeElement(element, elementType, target: target, policy: policy, path: path(), depth: depth)
            }
            let row = stage.mark
            stage.appendInteger(owner)
            if isList { stage.appendInteger(Int64(total)) }
            if isMap { stage.appendText(key ?? "") }
            if let resolved {
                stage.append(resolved.value)
                if isMixed { stage.appendInteger(resolved.tag ?? 0) }
            } else {
                try ObjectWriter.stageScalar(
                    element.value, as: elementScalarType, isNullable: isNullable, declared: elementType, into: stage, path: path())
            }
            if isSet && members == nil && !isFirst(valueAt: row.cell + valueOffset) {
                stage.reset(to: row)
                return
            }
            count += 1
            total += 1
            if inBatches && isBatchFull {
                // A set's later elements are compared with these rows once they are gone.
                if isSet && members == nil { rememberStagedRows() }
                try flush(into: writer)
            }
        }

        /// Whether as many rows are staged as are inserted at a time.
        private var isBatchFull: Bool {
            count >= RowStage.rowsPerBatch || stage.bytesStaged(since: start) >= RowStage.bytesPerBatch
        }

        /// Inserts the rows staged and starts a new batch.
        mutating func flush(into writer: CollectionWriter) throws {
            guard count > 0 else { return }
            // The staged rows by place, not `self`: passing the batch whole copied it.
            try writer.insertRows(count, from: start.cell, width: width, owner: ownerRef, property)
            stage.reset(to: start)
            count = 0
        }

        /// Whether the set element staged at cell `index` is not among the rows before it. Most
        /// sets are small: a scan until there are a few elements, then `seen` (hashing every
        /// element cost more than the scan).
        private mutating func isFirst(valueAt index: Int) -> Bool {
            let scanLimit = 8
            if total < scanLimit && seen.isEmpty {
                for row in 0..<count where stage.cellsEqual(valueCell(of: row), index) { return false }
                return true
            }
            rememberStagedRows()
            return seen.insert(stage.cell(at: index)).inserted
        }

        /// Adds the rows staged to `seen`, when it does not have them yet.
        private mutating func rememberStagedRows() {
            guard seen.count < total else { return }
            for row in 0..<count { seen.insert(stage.cell(at: valueCell(of: row))) }
        }

        private func valueCell(of row: Int) -> Int {
            start.cell + row * width + valueOffset
        }

        /// The staged rows as stored entries, to compare with the rows a collection holds.
        func entries() -> [StoredEntry] {
            (0..<count).map { row in
                let first = start.cell + row * width
                let key = isMap ? stage.text(at: first + 1) : nil
                return StoredEntry(key: key, value: stage.cell(at: first + valueOffset))
            }
        }
    }
}

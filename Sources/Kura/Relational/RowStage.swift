import CKuraCells
import Foundation

/// Rows being assembled for inserts: each value a `kura_cell`, texts and blobs copied into a byte
/// area beside the cells. The writer encodes values straight into it: building an array of
/// `DatabaseValue`s for every row, then copying it into a batch, was about a fifth of the writing
/// thread's instructions (retains, array growth, frees).
///
/// Rows nest: a parent's row waits half built while the objects it links to are written. The
/// stage is therefore a stack: a row starts at a `Mark`, and whoever took the mark resets to it
/// when done. A staged text or blob holds its offset in the byte area, which moves as it grows.
final class RowStage {
    /// How many rows an engine holds back and writes as one batch.
    static let rowsPerBatch = 256
    /// The bytes of texts and blobs a batch holds before it is written (it grows for a larger row).
    static let bytesPerBatch = 64 * 1024

    /// Where a row (or a run of rows) starts.
    struct Mark {
        /// The index of the first cell.
        let cell: Int
        fileprivate let byte: Int
    }

    // Unchecked: the stage belongs to one transaction on one thread, and its accessors never
    // overlap. Run-time exclusivity checks, here and on the transaction's per-type arrays, were
    // 2.5% of the writing thread's instructions.
    @exclusivity(unchecked) private(set) var cells: UnsafeMutablePointer<kura_cell>
    @exclusivity(unchecked) private var cellCapacity = 64
    /// How many cells are staged.
    @exclusivity(unchecked) private(set) var cellCount = 0
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var byteCapacity = 4096
    @exclusivity(unchecked) private var byteCount = 0

    init() {
        cells = .allocate(capacity: cellCapacity)
        bytes = .allocate(byteCount: byteCapacity, alignment: 8)
    }

    deinit {
        cells.deallocate()
        bytes.deallocate()
    }

    /// The current top of the stage.
    var mark: Mark { Mark(cell: cellCount, byte: byteCount) }

    /// The bytes of texts and blobs staged since `mark`.
    func bytesStaged(since mark: Mark) -> Int {
        byteCount - mark.byte
    }

    /// Drops every cell staged since `mark`.
    func reset(to mark: Mark) {
        cellCount = mark.cell
        byteCount = mark.byte
    }

    func appendNull() {
        push(kura_cell(type: KURA_CELL_NULL, length: 0, value: .init(integer: 0)))
    }

    func appendInteger(_ number: Int64) {
        push(kura_cell(type: KURA_CELL_INTEGER, length: 0, value: .init(integer: number)))
    }

    func appendReal(_ number: Double) {
        push(kura_cell(type: KURA_CELL_REAL, length: 0, value: .init(real: number)))
    }

    func appendText(_ text: String) {
        var text = text
        text.withUTF8 { appendBytes(UnsafeRawBufferPointer($0), type: KURA_CELL_TEXT) }
    }

    func appendBlob(_ data: Data) {
        data.withUnsafeBytes { appendBytes($0, type: KURA_CELL_BLOB) }
    }

    /// Stages a value already in its stored form.
    func append(_ cell: StoredCell) {
        switch cell {
        case .null: appendNull()
        case .integer(let number): appendInteger(number)
        case .real(let number): appendReal(number)
        case .text(let text): appendText(text)
        case .blob(let data): appendBlob(data)
        }
    }

    /// Stages `value` as a column of scalar type `type` (non-optional); false, with nothing staged,
    /// when the value does not fit the type. The common pairs are staged here; the others go
    /// through `ScalarCodec.cell`, the one definition of every stored form.
    func append(_ value: Value, as type: PropertyType) -> Bool {
        switch (type, value) {
        case (_, .null): appendNull()
        case (.int, .int(let number)): appendInteger(number)
        case (.bool, .bool(let flag)): appendInteger(flag ? 1 : 0)
        case (.string, .string(let text)): appendText(text)
        case (.double, .double(let number)) where !number.isNaN: appendReal(number)
        case (.date, .date(let date)):
            guard let millis = DateFormatting.storedMilliseconds(date) else { return false }
            appendInteger(millis)
        default:
            guard let stored = ScalarCodec.cell(value, as: type) else { return false }
            append(stored)
        }
        return true
    }

    /// The staged cell at `index` (for comparisons with stored rows).
    func cell(at index: Int) -> StoredCell {
        let cell = cells[index]
        switch cell.type {
        case KURA_CELL_INTEGER: return .integer(cell.value.integer)
        case KURA_CELL_REAL: return .real(cell.value.real)
        case KURA_CELL_TEXT: return .text(String(decoding: stagedBytes(of: cell), as: UTF8.self))
        case KURA_CELL_BLOB: return .blob(Data(stagedBytes(of: cell)))
        default: return .null
        }
    }

    /// The text staged in the cell at `index`, which holds text.
    func text(at index: Int) -> String {
        String(decoding: stagedBytes(of: cells[index]), as: UTF8.self)
    }

    /// Whether the cells at `lhs` and `rhs` hold the same stored value.
    func cellsEqual(_ lhs: Int, _ rhs: Int) -> Bool {
        let left = cells[lhs]
        let right = cells[rhs]
        guard left.type == right.type else { return false }
        switch left.type {
        case KURA_CELL_INTEGER: return left.value.integer == right.value.integer
        case KURA_CELL_REAL: return left.value.real == right.value.real
        case KURA_CELL_TEXT, KURA_CELL_BLOB: return stagedBytes(of: left).elementsEqual(stagedBytes(of: right))
        default: return true
        }
    }

    /// The bytes of a staged text or blob cell.
    func stagedBytes(of cell: kura_cell) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: address(of: cell), count: Int(cell.length))
    }

    /// Where the bytes of a staged text or blob cell start; they stay there until more is staged.
    func address(of cell: kura_cell) -> UnsafeRawPointer {
        UnsafeRawPointer(bytes + Int(cell.value.integer))
    }

    /// How many bytes of texts and blobs the cells in `range` hold.
    func byteCount(of range: Range<Int>) -> Int {
        var total = 0
        for index in range where cells[index].type == KURA_CELL_TEXT || cells[index].type == KURA_CELL_BLOB {
            total += Int(cells[index].length)
        }
        return total
    }

    // A length past CInt's range is clamped, not trapped on: SQLite then refuses the value as too big.

    private func appendBytes(_ source: UnsafeRawBufferPointer, type: CInt) {
        if byteCount + source.count > byteCapacity {
            let grown = max(byteCapacity * 2, byteCount + source.count)
            let moved = UnsafeMutableRawPointer.allocate(byteCount: grown, alignment: 8)
            moved.copyMemory(from: bytes, byteCount: byteCount)
            bytes.deallocate()
            bytes = moved
            byteCapacity = grown
        }
        if let base = source.baseAddress, source.count > 0 {
            (bytes + byteCount).copyMemory(from: base, byteCount: source.count)
        }
        push(kura_cell(type: type, length: CInt(clamping: source.count), value: .init(integer: Int64(byteCount))))
        byteCount += source.count
    }

    private func push(_ cell: kura_cell) {
        if cellCount == cellCapacity {
            let grown = cellCapacity * 2
            let moved = UnsafeMutablePointer<kura_cell>.allocate(capacity: grown)
            moved.moveInitialize(from: cells, count: cellCount)
            cells.deallocate()
            cells = moved
            cellCapacity = grown
        }
        (cells + cellCount).initialize(to: cell)
        cellCount += 1
    }
}

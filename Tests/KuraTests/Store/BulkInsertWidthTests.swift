import Testing

// @testable to compare the layout's bulk width with the width of SQLite's `kura_rows` table.
@testable import Kura

/// The table layout makes a bulk insert only for a table SQLite's `kura_rows` takes whole, and
/// every table it can take gets one: a narrower layout would write rows one by one for nothing.
@Suite struct BulkInsertWidthTests {
    @Test func theLayoutsWidestBulkInsertIsTheWidthOfKuraRows() {
        #expect(WriteStatements.maxBulkColumns == BulkInserts.maxColumns)
    }
}

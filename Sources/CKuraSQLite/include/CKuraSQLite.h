#ifndef CKURASQLITE_H
#define CKURASQLITE_H

#include "CKuraCells.h"

/// Turns off SQLite's memory statistics for the whole process (SQLITE_CONFIG_MEMSTATUS). With them
/// on, every SQLite allocation and free takes a global mutex. Must run before SQLite is first used;
/// returns SQLITE_OK, or SQLITE_MISUSE when SQLite is already initialized (nothing changes then).
/// Not thread-safe: no other thread may use SQLite meanwhile.
int kura_sqlite_disable_memory_statistics(void);

/// Starts writing the dirty pages of the file at `path` to disk, without waiting for them
/// (Linux's `sync_file_range` with `SYNC_FILE_RANGE_WRITE`). Returns 0, or an `errno` value;
/// elsewhere, or when the file does not exist, does nothing.
int kura_start_writeback(const char *path);

/// Rows waiting to be inserted: `rows` rows of `columns` cells each, row after row.
struct kura_rows_batch {
    const struct kura_cell *cells;
    int columns;
    int rows;
};

/// How many columns the `kura_rows` table has (c0, c1, …); wider rows cannot go through it.
int kura_rows_max_columns(void);

/// Registers the table-valued function `kura_rows` on the connection `db` (a `sqlite3 *`): the
/// statement `INSERT INTO t SELECT c0, c1, … FROM kura_rows(?1)` inserts every row of the batch
/// bound to ?1 in one run. Returns an SQLite result code.
int kura_rows_register(void *db);

/// Binds `batch` to parameter `index` of `statement` (a `sqlite3_stmt *`) for `kura_rows`.
int kura_rows_bind(void *statement, int index, const struct kura_rows_batch *batch);

#endif

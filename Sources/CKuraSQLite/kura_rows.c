#include "CKuraSQLite.h"
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

// A staged cell's kind is bound as the storage class of the same number.
_Static_assert(KURA_CELL_INTEGER == SQLITE_INTEGER && KURA_CELL_REAL == SQLITE_FLOAT && KURA_CELL_TEXT == SQLITE_TEXT
    && KURA_CELL_BLOB == SQLITE_BLOB && KURA_CELL_NULL == SQLITE_NULL, "cell kinds are SQLite's storage classes");

// The table-valued function `kura_rows`: a batch of rows built in memory, read by one
// INSERT ... SELECT. One statement run per batch instead of one per row: SQLite opens and closes
// the table's and its indexes' cursors once per run, which is most of a small row's cost.

enum { kura_max_columns = 128 };

// The pointer type name `sqlite3_bind_pointer` and `sqlite3_value_pointer` match on.
static const char kura_rows_type[] = "kura_rows_batch";

typedef struct {
    sqlite3_vtab base;
} kura_rows_table;

typedef struct {
    sqlite3_vtab_cursor base;
    const struct kura_rows_batch *batch;
    int row;
} kura_rows_cursor;

int kura_rows_max_columns(void) { return kura_max_columns; }

static int kura_rows_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **table, char **error) {
    (void)aux; (void)argc; (void)argv; (void)error;
    char declaration[16 * kura_max_columns + 64];
    int used = snprintf(declaration, sizeof declaration, "CREATE TABLE x(");
    for (int column = 0; column < kura_max_columns; column++) {
        used += snprintf(declaration + used, sizeof declaration - used, "c%d, ", column);
    }
    snprintf(declaration + used, sizeof declaration - used, "batch HIDDEN)");
    int code = sqlite3_declare_vtab(db, declaration);
    if (code != SQLITE_OK) return code;
    kura_rows_table *made = sqlite3_malloc(sizeof *made);
    if (made == NULL) return SQLITE_NOMEM;
    memset(made, 0, sizeof *made);
    *table = &made->base;
    return SQLITE_OK;
}

static int kura_rows_disconnect(sqlite3_vtab *table) {
    sqlite3_free(table);
    return SQLITE_OK;
}

// The batch column is the function's argument: a plan without it (a plain scan) is refused.
static int kura_rows_best_index(sqlite3_vtab *table, sqlite3_index_info *info) {
    (void)table;
    for (int i = 0; i < info->nConstraint; i++) {
        const struct sqlite3_index_constraint *constraint = &info->aConstraint[i];
        if (constraint->iColumn == kura_max_columns && constraint->op == SQLITE_INDEX_CONSTRAINT_EQ && constraint->usable) {
            info->aConstraintUsage[i].argvIndex = 1;
            info->aConstraintUsage[i].omit = 1;
            info->estimatedCost = 1;
            info->estimatedRows = 100;
            return SQLITE_OK;
        }
    }
    return SQLITE_CONSTRAINT;
}

static int kura_rows_open(sqlite3_vtab *table, sqlite3_vtab_cursor **cursor) {
    (void)table;
    kura_rows_cursor *made = sqlite3_malloc(sizeof *made);
    if (made == NULL) return SQLITE_NOMEM;
    memset(made, 0, sizeof *made);
    *cursor = &made->base;
    return SQLITE_OK;
}

static int kura_rows_close(sqlite3_vtab_cursor *cursor) {
    sqlite3_free(cursor);
    return SQLITE_OK;
}

static int kura_rows_filter(sqlite3_vtab_cursor *base, int index, const char *name, int argc, sqlite3_value **argv) {
    (void)index; (void)name;
    kura_rows_cursor *cursor = (kura_rows_cursor *)base;
    cursor->batch = argc > 0 ? sqlite3_value_pointer(argv[0], kura_rows_type) : NULL;
    cursor->row = 0;
    return SQLITE_OK;
}

static int kura_rows_next(sqlite3_vtab_cursor *base) {
    ((kura_rows_cursor *)base)->row++;
    return SQLITE_OK;
}

static int kura_rows_eof(sqlite3_vtab_cursor *base) {
    const kura_rows_cursor *cursor = (const kura_rows_cursor *)base;
    return cursor->batch == NULL || cursor->row >= cursor->batch->rows;
}

static int kura_rows_rowid(sqlite3_vtab_cursor *base, sqlite3_int64 *rowid) {
    *rowid = ((const kura_rows_cursor *)base)->row;
    return SQLITE_OK;
}

static int kura_rows_column(sqlite3_vtab_cursor *base, sqlite3_context *context, int column) {
    const kura_rows_cursor *cursor = (const kura_rows_cursor *)base;
    const struct kura_rows_batch *batch = cursor->batch;
    if (batch == NULL || column >= batch->columns) return SQLITE_OK;  // null
    const struct kura_cell *cell = &batch->cells[(size_t)cursor->row * (size_t)batch->columns + (size_t)column];
    switch (cell->type) {
    case SQLITE_INTEGER: sqlite3_result_int64(context, cell->value.integer); break;
    case SQLITE_FLOAT: sqlite3_result_double(context, cell->value.real); break;
    // Static: the batch outlives the statement run, and the insert copies the bytes into its record.
    case SQLITE_TEXT: sqlite3_result_text(context, cell->value.bytes, cell->length, SQLITE_STATIC); break;
    case SQLITE_BLOB: sqlite3_result_blob(context, cell->value.bytes, cell->length, SQLITE_STATIC); break;
    default: break;
    }
    return SQLITE_OK;
}

static sqlite3_module kura_rows_module = {
    .iVersion = 0,
    .xCreate = NULL,  // eponymous only: used as kura_rows(?), never created as a table
    .xConnect = kura_rows_connect,
    .xBestIndex = kura_rows_best_index,
    .xDisconnect = kura_rows_disconnect,
    .xOpen = kura_rows_open,
    .xClose = kura_rows_close,
    .xFilter = kura_rows_filter,
    .xNext = kura_rows_next,
    .xEof = kura_rows_eof,
    .xColumn = kura_rows_column,
    .xRowid = kura_rows_rowid,
};

int kura_rows_register(void *db) {
    return sqlite3_create_module_v2((sqlite3 *)db, "kura_rows", &kura_rows_module, NULL, NULL);
}

int kura_rows_bind(void *statement, int index, const struct kura_rows_batch *batch) {
    return sqlite3_bind_pointer((sqlite3_stmt *)statement, index, (void *)batch, kura_rows_type, NULL);
}

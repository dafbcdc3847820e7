#ifndef CKURACELLS_H
#define CKURACELLS_H

/// The kinds of value a staged cell holds. They are the numbers of SQLite's storage classes
/// (SQLITE_INTEGER …), so that SQLite's bulk insert binds staged cells as they are; other engines
/// read them through these names.
#define KURA_CELL_INTEGER 1
#define KURA_CELL_REAL 2
#define KURA_CELL_TEXT 3
#define KURA_CELL_BLOB 4
#define KURA_CELL_NULL 5

/// One value of a pending row: `type` is one of the KURA_CELL_ kinds; texts and blobs point at
/// `length` bytes that must stay put until the statement reading them has run (while staged, the
/// row stage keeps their offset in its byte area in `integer` instead).
struct kura_cell {
    int type;
    int length;
    union {
        long long integer;
        double real;
        const void *bytes;
    } value;
};

#endif

#include "CKuraSQLite.h"
#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: hence this file.
int kura_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

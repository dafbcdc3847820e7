#ifndef CKURASQLITE_H
#define CKURASQLITE_H

/// Turns off SQLite's memory statistics for the whole process (SQLITE_CONFIG_MEMSTATUS). With them
/// on, every SQLite allocation and free takes a global mutex. Must run before SQLite is first used;
/// returns SQLITE_OK, or SQLITE_MISUSE when SQLite is already initialized (nothing changes then).
/// Not thread-safe: no other thread may use SQLite meanwhile.
int kura_sqlite_disable_memory_statistics(void);

#endif

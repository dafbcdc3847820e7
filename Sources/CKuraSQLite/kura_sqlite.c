#define _GNU_SOURCE
#include "CKuraSQLite.h"
#include <sqlite3.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

// sqlite3_config is variadic, which Swift cannot call: hence this file.
int kura_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

// sync_file_range is a GNU extension, not in Swift's Glibc module.
int kura_start_writeback(const char *path) {
#if defined(__linux__)
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT ? 0 : errno;
    int result = sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE) == 0 ? 0 : errno;
    close(fd);
    return result;
#else
    (void)path;
    return 0;
#endif
}

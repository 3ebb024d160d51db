#ifndef BEACONCTL_CSQLITE_SHIM_H
#define BEACONCTL_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer, a macro Swift does not import:
   it tells sqlite3_bind_text and sqlite3_bind_blob to copy the bytes before returning. */
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif

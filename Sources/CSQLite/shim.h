// SQLite, for the resume store.
#ifndef FRAMESEEK_CSQLITE_SHIM_H
#define FRAMESEEK_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
